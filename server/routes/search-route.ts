/**
 * GET /api/search — parameters validated by JSON schema; user errors answer 400. Filters (`lang`,
 * `host`, `section`, `type`) repeat: `?lang=de&lang=fr`. The visitor's Accept-Language chooses
 * which translation of a page is shown; `onAnswer` hears every answered search (analytics).
 */
import type { FastifyInstance } from 'fastify';
import { RANK_MODES, SORT_ORDERS, type EngineQuery, type EngineResult, type SearchService } from '../../indexer/ranking/search-engine.ts';
import { QuerySyntaxError } from '../../indexer/text-index/errors.ts';
import { UnknownLanguageError } from '../../indexer/text-index/languages.ts';

const filterValues = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 }, maxItems: 20 } as const;

const querySchema = {
  type: 'object',
  required: ['q'],
  additionalProperties: false,
  properties: {
    q: { type: 'string', minLength: 1, maxLength: 500 },
    page: { type: 'integer', minimum: 1, maximum: 1000, default: 1 },
    size: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    rank: { type: 'string', enum: [...RANK_MODES], default: 'blend' },
    sort: { type: 'string', enum: [...SORT_ORDERS], default: 'relevance' },
    explain: { type: 'boolean', default: false },
    lang: filterValues,
    host: filterValues,
    section: filterValues,
    type: filterValues,
  },
} as const;

/** Primary language subtags of an Accept-Language header, by quality (`de-CH, fr;q=0.8` → de, fr). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const entries = header
    .slice(0, 500)
    .split(',')
    .map((part, position) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: tag.trim().toLowerCase().split('-')[0], quality: q === undefined ? 1 : Number(q), position };
    })
    .filter((entry) => /^[a-z]{2,3}$/.test(entry.lang) && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.position - b.position);
  return [...new Set(entries.map((entry) => entry.lang))];
}

export type SearchListener = (query: EngineQuery, result: EngineResult) => void;

export function registerSearchRoute(app: FastifyInstance, search: SearchService, onAnswer?: SearchListener): void {
  app.get<{ Querystring: EngineQuery }>('/api/search', { schema: { querystring: querySchema } }, async (request, reply) => {
    if (request.query.q.trim() === '') return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: 'the query is empty' });
    const query: EngineQuery = { ...request.query, visitorLanguages: acceptedLanguages(request.headers['accept-language']) };
    let result: EngineResult;
    try {
      result = await search.search(query);
    } catch (error) {
      if (error instanceof UnknownLanguageError) return reply.code(400).send({ statusCode: 400, code: error.code, error: 'Bad Request', message: error.message, supported: error.supported });
      if (error instanceof QuerySyntaxError) return reply.code(400).send({ statusCode: 400, code: 'LSE_QUERY_SYNTAX', error: 'Bad Request', message: error.message });
      throw error;
    }
    onAnswer?.(query, result);
    return result;
  });
}
