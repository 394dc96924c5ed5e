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
    /** `opensearch`: the browser's suggestion format, [query, [completions]]. */
    format: { type: 'string', enum: ['json', 'opensearch'], default: 'json' },
  },
} as const;

/** `holdsPrivateContent`: suggestions from pages that are not public are kept from shared caches. */
export function registerSuggestRoute(app: FastifyInstance, search: SearchService, holdsPrivateContent?: () => boolean): void {
  app.get<{ Querystring: { q: string; limit: number; format: 'json' | 'opensearch' } }>('/api/suggest', { schema: { querystring: querySchema } }, async (request, reply) => {
    // Suggestions change only with the index: a browser may keep them a minute.
    reply.header('cache-control', `${holdsPrivateContent?.() ? 'private' : 'public'}, max-age=60`);
    const suggestions = search.suggest?.(request.query.q, request.query.limit) ?? [];
    if (request.query.format === 'opensearch') {
      reply.type('application/x-suggestions+json');
      return JSON.stringify([request.query.q, suggestions.map((s) => s.text)]);
    }
    return { suggestions };
  });
}
