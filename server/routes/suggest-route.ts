/**
 * GET /api/suggest?q=PREFIX → { suggestions: [{ text, kind: 'term' | 'title', url? }] }.
 * A prefix past 200 characters is no prefix anyone types: 400, like any other bad parameter.
 */
import type { FastifyInstance } from 'fastify';
import type { SearchService } from '../../indexer/ranking/search-engine.ts';

const querySchema = {
  type: 'object',
  required: ['q'],
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 200 },
    limit: { type: 'integer', minimum: 1, maximum: 20, default: 8 },
  },
} as const;

export function registerSuggestRoute(app: FastifyInstance, search: SearchService): void {
  app.get<{ Querystring: { q: string; limit: number } }>('/api/suggest', { schema: { querystring: querySchema } }, async (request, reply) => {
    // Suggestions change only with the index: a browser may keep them a minute.
    reply.header('cache-control', 'public, max-age=60');
    return { suggestions: search.suggest?.(request.query.q, request.query.limit) ?? [] };
  });
}
