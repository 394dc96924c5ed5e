/**
 * POST /api/click — a click on a result, sent by the page with navigator.sendBeacon.
 *
 * Why a beacon and not a redirect through the server: the result links stay the pages' own URLs
 * (copy link, open in a new tab, the status bar and a visitor without JavaScript all see where a
 * link goes, and nothing stands between the visitor and the page when the search server is
 * slow), and the browser delivers a beacon even as it leaves the page. A click the page could
 * not send is lost; that is the price, and analytics can bear it.
 *
 * Only a well-formed click on a page the search can show (or on one of its sections) is recorded; anything else is 400 and
 * leaves no record.
 */
import type { FastifyInstance } from 'fastify';
import type { SearchEngine } from '../../indexer/ranking/search-engine.ts';
import type { SearchAnalytics } from '../search-admin/analytics.ts';

const clickBody = {
  type: 'object',
  required: ['q', 'url', 'position'],
  additionalProperties: false,
  properties: {
    q: { type: 'string', minLength: 1, maxLength: 500 },
    url: { type: 'string', minLength: 1, maxLength: 2000, pattern: '^https?://' },
    position: { type: 'integer', minimum: 1, maximum: 1000 },
  },
} as const;

function pageUrlOf(link: string): string {
  const hash = link.indexOf('#');
  return hash === -1 ? link : link.slice(0, hash);
}

export function registerClickRoute(app: FastifyInstance, engine: SearchEngine, analytics: SearchAnalytics): void {
  // sendBeacon with a string body sends text/plain (no CORS preflight): parse it as JSON here.
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      const error = Object.assign(new Error('the click is not JSON'), { statusCode: 400, code: 'LSE_BAD_CLICK' });
      done(error, undefined);
    }
  });
  app.post<{ Body: { q: string; url: string; position: number } }>('/api/click', { bodyLimit: 4096, schema: { body: clickBody } }, async (request, reply) => {
    const { q, position } = request.body;
    // A section link is the page's URL with the heading's fragment: a click on the page.
    const url = pageUrlOf(request.body.url);
    if (engine.pageFacts.idOfUrl(url) === undefined) {
      return reply.code(400).send({ statusCode: 400, code: 'LSE_BAD_CLICK', error: 'Bad Request', message: 'the URL is not a page of this site' });
    }
    analytics.recordClick(q, url, position);
    return reply.code(204).send();
  });
}
