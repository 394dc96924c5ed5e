/**
 * Admin routes of the site's upkeep (`/api/admin/…`, admin token): the URLs of a held index
 * change and discarding it (applying it is `POST /jobs/:id/apply-index`).
 */
import type { FastifyInstance } from 'fastify';
import type { JobRunner } from '../jobs/job-runner.ts';
import { adminTokenHook } from './admin-routes.ts';

export interface AdminSiteDeps {
  token: string;
  runner: JobRunner;
  rateLimitPerMinute: number;
}

const notHeld = (id: string) => ({ statusCode: 404, error: 'Not Found', message: `job ${id} has no held index change` });

export function adminSiteRoutes(deps: AdminSiteDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(
      async (admin) => {
        admin.addHook('onRequest', adminTokenHook(deps.token));
        const limit = { config: { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: '1 minute' } } };

        admin.get<{ Params: { id: string } }>('/jobs/:id/held-index', limit, async (request, reply) => {
          const urls = deps.runner.heldIndexUrls(request.params.id);
          if (!urls) return reply.code(404).send(notHeld(request.params.id));
          return { job: request.params.id, removing: urls.length, urls };
        });
        admin.delete<{ Params: { id: string } }>('/jobs/:id/held-index', limit, async (request, reply) => {
          if (!deps.runner.discardHeldIndexChange(request.params.id)) return reply.code(404).send(notHeld(request.params.id));
          return { discarded: request.params.id };
        });
      },
      { prefix: '/api/admin' },
    );
  };
}
