/**
 * Admin routes of the site's upkeep (`/api/admin/…`, admin token): the URLs of a held index
 * change and discarding it (applying it is `POST /jobs/:id/apply-index`), setting a schedule
 * without a restart, and the best bets that point at no indexed page.
 */
import type { FastifyInstance } from 'fastify';
import type { Scope } from '../../crawler/scope.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import type { TextIndex } from '../../indexer/text-index/text-index.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import { EDITABLE_SCHEDULES, type EditableSchedule, type Schedules } from '../jobs/schedules.ts';
import type { SearchControl } from '../search-admin/search-control.ts';
import { adminTokenHook } from './admin-routes.ts';

export interface AdminSiteDeps {
  token: string;
  runner: JobRunner;
  store: CrawlStore;
  index: TextIndex;
  control: SearchControl;
  scope: Scope;
  schedules: Schedules;
  rateLimitPerMinute: number;
}

/** Where the schedules an admin set are kept (store meta), read when the server starts. */
export const SCHEDULE_EDITS_KEY = 'schedule-edits';

export interface BetProblem {
  pattern: string;
  url: string;
  problem: 'outside-site' | 'not-indexed';
  message: string;
}

/** The best bets whose URL is no page of the index: mistyped, removed, or on another site. */
export function bestBetProblems(deps: Pick<AdminSiteDeps, 'store' | 'index' | 'control' | 'scope'>): BetProblem[] {
  const problems: BetProblem[] = [];
  for (const bet of deps.control.effectiveSettings.bestBets) {
    for (const url of bet.urls) {
      const id = deps.store.idOf(url);
      if (id !== undefined && deps.index.has(id)) continue;
      const outside = !deps.scope.isLocal(url);
      problems.push({
        pattern: bet.pattern,
        url,
        problem: outside ? 'outside-site' : 'not-indexed',
        message: outside ? 'outside the site: a best bet shows indexed pages only, so it never shows' : 'no indexed page has this URL (mistyped, removed, or not crawled yet): the bet shows nothing for it',
      });
    }
  }
  return problems;
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

        admin.put<{ Params: { name: string }; Body: { cron: string } }>(
          '/schedules/:name',
          { ...limit, schema: { body: { type: 'object', required: ['cron'], additionalProperties: false, properties: { cron: { type: 'string', minLength: 1, maxLength: 100 } } } } },
          async (request, reply) => {
            const name = request.params.name as EditableSchedule;
            if (!EDITABLE_SCHEDULES.includes(name)) {
              return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no editable schedule ${request.params.name} (${EDITABLE_SCHEDULES.join(', ')})` });
            }
            try {
              await deps.schedules.edit(name, request.body.cron);
            } catch (error) {
              const code = (error as { code?: string }).code;
              if (code === 'LSE_SCHEDULE_INVALID_CRON') return reply.code(400).send({ statusCode: 400, code, error: 'Bad Request', message: `${(error as Error).message}: five fields, minute hour day-of-month month day-of-week, e.g. "0 3 * * *" (03:00 every day), or "off"` });
              throw error;
            }
            const edits = (await deps.store.getMeta<Record<string, string>>(SCHEDULE_EDITS_KEY)) ?? {};
            edits[name] = request.body.cron.trim().replace(/\s+/g, ' ');
            await deps.store.batch().putMeta(SCHEDULE_EDITS_KEY, edits).commit();
            return { schedule: deps.schedules.list().find((s) => s.name === name) };
          },
        );

        admin.get('/best-bets/problems', limit, async () => ({ problems: bestBetProblems(deps) }));
      },
      { prefix: '/api/admin' },
    );
  };
}
