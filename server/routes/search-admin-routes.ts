/**
 * The admin API of the search experience (`/api/admin/…`, admin token): best bets and synonyms,
 * URLs removed from results, the inspection of one URL, search analytics.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SearchEngine } from '../../indexer/ranking/search-engine.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import type { TextIndex } from '../../indexer/text-index/text-index.ts';
import type { SearchAnalytics } from '../search-admin/analytics.ts';
import { inspectUrl } from '../search-admin/inspect-url.ts';
import type { SearchControl } from '../search-admin/search-control.ts';
import { adminTokenHook } from './admin-routes.ts';
import { strictAdminSchemas } from './strict-admin.ts';

export interface SearchAdminDeps {
  token: string;
  store: CrawlStore;
  index: TextIndex;
  engine: SearchEngine;
  control: SearchControl;
  analytics: SearchAnalytics;
  rateLimitPerMinute: number;
}

const urlSchema = { type: 'string', minLength: 1, maxLength: 2000, pattern: '^https?://' } as const;
const urlBody = { type: 'object', required: ['url'], additionalProperties: false, properties: { url: urlSchema } } as const;
const urlQuery = urlBody;

/**
 * A PUT replaces all of the admin's best bets and synonyms, so it must say both, in full: a body
 * that names neither (`{}`, `{"a":1}`) would otherwise store two empty lists. Unknown keys, at
 * any level, are refused. parseSearchSettings then checks the values.
 */
const searchSettingsBody = z
  .object({
    synonyms: z.array(z.array(z.string())),
    bestBets: z.array(z.object({ pattern: z.string(), urls: z.array(z.string()) }).strict()),
  })
  .strict();

/** The first problem of a body zod refused, with where it is (`bestBets.0: Unrecognized key: "note"`). */
export function zodProblem(error: z.ZodError): string {
  // An unknown key first: it is usually the reason the expected ones are missing.
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

const badRequest = (message: string) => ({ statusCode: 400, code: 'LSE_BAD_SEARCH_SETTINGS', error: 'Bad Request', message });

export function searchAdminRoutes(deps: SearchAdminDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(
      async (admin) => {
        admin.addHook('onRequest', adminTokenHook(deps.token));
        strictAdminSchemas(admin);
        const limit = { config: { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: '1 minute' } } };

        admin.get('/search-settings', limit, async () => ({
          fromSettingsFile: deps.control.fromFile,
          stored: deps.control.storedSettings,
          effective: deps.control.effectiveSettings,
        }));
        admin.put('/search-settings', { config: { ...limit.config, validatesOwnBody: true }, bodyLimit: 1_000_000 }, async (request, reply) => {
          const body = searchSettingsBody.safeParse(request.body);
          if (!body.success) return reply.code(400).send(badRequest(`the body must be {"synonyms": [...], "bestBets": [...]}, both given in full (empty lists allowed): ${zodProblem(body.error)}`));
          try {
            return { stored: await deps.control.setStoredSettings(body.data) };
          } catch (error) {
            return reply.code(400).send(badRequest((error as Error).message));
          }
        });

        admin.get('/removed', limit, async () => ({ removed: deps.control.removedUrls }));
        admin.post<{ Body: { url: string } }>('/removed', { ...limit, schema: { body: urlBody } }, async (request, reply) => {
          await deps.control.remove(request.body.url);
          return reply.code(201).send({ removed: deps.control.removedUrls });
        });
        admin.delete<{ Querystring: { url: string } }>('/removed', { ...limit, schema: { querystring: urlQuery } }, async (request, reply) => {
          if (!(await deps.control.lift(request.query.url))) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `${request.query.url} is not removed` });
          return { removed: deps.control.removedUrls };
        });
        admin.get<{ Querystring: { url: string } }>('/inspect', { ...limit, schema: { querystring: urlQuery } }, async (request) =>
          inspectUrl(request.query.url, deps),
        );

        admin.get<{ Querystring: { days: number } }>(
          '/analytics',
          { ...limit, schema: { querystring: { type: 'object', additionalProperties: false, properties: { days: { type: 'integer', minimum: 1, maximum: 3650, default: 30 } } } } },
          async (request) => deps.analytics.summary(request.query.days),
        );
      },
      { prefix: '/api/admin' },
    );
  };
}
