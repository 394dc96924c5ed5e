/**
 * GET /api/search — parameters validated by JSON schema; user errors answer 400. Filters (`lang`,
 * `host`, `section`, `type`) repeat: `?lang=de&lang=fr`. Which translation of a page is shown
 * follows the visitor's languages: first the one they chose on the site — `hl` (a site's search
 * form can send its page's language) or the language of the page `from` names (the page they
 * searched from) — then Accept-Language. The answer names that chosen language as `hl`, so the
 * search page can preselect it. `onAnswer` hears every answered search (analytics).
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
    hl: { type: 'string', maxLength: 35 },
    from: { type: 'string', maxLength: 2000 },
  },
} as const;

/** A language tag's primary subtag (`de-CH` → `de`), or undefined for anything else. */
export function primarySubtag(tag: string | undefined): string | undefined {
  const match = tag === undefined ? null : /^\s*([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*\s*$/i.exec(tag);
  return match ? match[1].toLowerCase() : undefined;
}

interface SearchRequest extends EngineQuery {
  hl?: string;
  from?: string;
}

/**
 * The language the visitor chose on the site: `hl` when it is a language tag, else the language
 * of the page `from` names when it is one of the site's. Anything else is ignored, never an error:
 * a referrer is whatever the browser sent.
 */
function chosenLanguage(search: SearchService, hl: string | undefined, from: string | undefined): string | undefined {
  return primarySubtag(hl) ?? (from ? search.languageOfPage?.(from) : undefined);
}

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
  app.get<{ Querystring: SearchRequest }>('/api/search', { schema: { querystring: querySchema } }, async (request, reply) => {
    if (request.query.q.trim() === '') return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: 'the query is empty' });
    const { hl, from, ...asked } = request.query;
    const chosen = chosenLanguage(search, hl, from);
    const accepted = acceptedLanguages(request.headers['accept-language']);
    const query: EngineQuery = { ...asked, visitorLanguages: chosen === undefined ? accepted : [chosen, ...accepted.filter((lang) => lang !== chosen)] };
    let result: EngineResult;
    try {
      result = await search.search(query);
    } catch (error) {
      if (error instanceof UnknownLanguageError) return reply.code(400).send({ statusCode: 400, code: error.code, error: 'Bad Request', message: error.message, supported: error.supported });
      if (error instanceof QuerySyntaxError) return reply.code(400).send({ statusCode: 400, code: 'code' in error ? error.code : 'LSE_QUERY_SYNTAX', error: 'Bad Request', message: error.message });
      throw error;
    }
    onAnswer?.(query, result);
    return chosen === undefined ? result : { ...result, hl: chosen };
  });
}
