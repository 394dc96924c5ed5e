/** GET /api/search — parameters validated by JSON schema; user errors answer 400. */
import type { FastifyInstance } from 'fastify';
import { RANK_MODES, type EngineQuery, type SearchService } from '../../indexer/ranking/search-engine.ts';
import { QuerySyntaxError } from '../../indexer/text-index/errors.ts';
import { UnknownLanguageError } from '../../indexer/text-index/languages.ts';

const querySchema = {
  type: 'object',
  required: ['q'],
  additionalProperties: false,
  properties: {
    q: { type: 'string', minLength: 1, maxLength: 500 },
    page: { type: 'integer', minimum: 1, maximum: 1000, default: 1 },
    size: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    rank: { type: 'string', enum: [...RANK_MODES], default: 'blend' },
    explain: { type: 'boolean', default: false },
    lang: { type: 'string', minLength: 1, maxLength: 35 },
  },
} as const;

export function registerSearchRoute(app: FastifyInstance, search: SearchService): void {
  app.get<{ Querystring: EngineQuery }>('/api/search', { schema: { querystring: querySchema } }, async (request, reply) => {
    if (request.query.q.trim() === '') return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: 'the query is empty' });
    try {
      return await search.search(request.query);
    } catch (error) {
      if (error instanceof UnknownLanguageError) return reply.code(400).send({ statusCode: 400, code: error.code, error: 'Bad Request', message: error.message, supported: error.supported });
      if (error instanceof QuerySyntaxError) return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: error.message });
      throw error;
    }
  });
}
