/**
 * The HTTP application: search API, health, metrics, static pages, security headers and rate
 * limits. Built from its dependencies so tests drive it with `app.inject` and the CLI serves it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { MetricsRegistry } from './metrics.ts';
import { registerSearchRoute } from './routes/search-route.ts';
import { registerSuggestRoute } from './routes/suggest-route.ts';
import type { EngineQuery, SearchEngine, SearchService } from '../indexer/ranking/search-engine.ts';
import type { SearchAnalytics } from './search-admin/analytics.ts';
import { registerClickRoute } from './routes/click-route.ts';
import { registerOpenSearchRoute } from './routes/opensearch-route.ts';
import { registerSignInRoutes } from './routes/signin-route.ts';
import type { SearchAccess } from './search-access.ts';
import type { SearchTurns } from './search-turns.ts';
import { SlowSearchLog, type SearchMark } from './slow-searches.ts';

export const WEB_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', 'web');

export interface AppOptions {
  search: SearchService;
  metrics?: MetricsRegistry;
  /** pino options, or false for silence (tests). */
  logger?: FastifyServerOptions['logger'];
  /**
   * Which reverse proxies to believe about the client (fastify's trustProxy; server.trustProxy):
   * the client address keys the rate limits, the protocol decides the cookies' `Secure`.
   */
  trustProxy?: boolean | string[];
  /** Requests per minute per client on /api/ (default 600). */
  rateLimitPerMinute?: number;
  webRoot?: string;
  /** The site's name for the search page (GET /api/info). */
  siteName?: string;
  /** More of what GET /api/info tells the search page (placeholder, example queries, …). */
  siteInfo?: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Records searches and result clicks (POST /api/click) without personal data. */
  analytics?: { store: SearchAnalytics; engine: SearchEngine };
  /** Who may search: sign-in for an index holding pages fetched with credentials (default: anyone). */
  access?: SearchAccess;
  /** Searches and suggestions take turns with background jobs (see search-turns.ts). */
  searchTurns?: SearchTurns;
  /** Searches and suggestions that take the server longer are logged with where the time went (0: none). */
  slowSearchMs?: number;
  /** More routes (the admin API), registered inside the app. */
  plugins?: Array<(app: FastifyInstance) => Promise<void> | void>;
}

// Page text is never trusted as HTML; the pages load only their own scripts and styles.
const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
};

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: 'info', redact: ['req.headers.authorization'] },
    trustProxy: options.trustProxy ?? false,
    // 'array': a filter given once (`?lang=de`) is read as a list of one.
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, useDefaults: true } },
  });
  const metrics = options.metrics ?? new MetricsRegistry();

  // How long each answer took inside the server (W3C Server-Timing, shown by browsers' developer
  // tools): `app` from routing to sending, and `turn`, the part a search waited for its turn beside
  // a job. A client that measured longer than `app` waited outside the handler: on the network, on
  // a busy event loop, or on its own side.
  const turnWaits = new WeakMap<FastifyRequest, number>();
  app.addHook('onSend', async (request, reply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    const waited = turnWaits.get(request);
    reply.header('server-timing', `${waited === undefined ? '' : `turn;dur=${waited.toFixed(2)}, `}app;dur=${reply.elapsedTime.toFixed(2)}`);
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.requests.inc({ route: request.routeOptions.url ?? 'unmatched', method: request.method, code: String(reply.statusCode) });
    metrics.latency.observe(reply.elapsedTime / 1000);
  });

  await app.register(fastifyRateLimit, {
    max: options.rateLimitPerMinute ?? 600,
    timeWindow: '1 minute',
    allowList: (request) => !request.url.startsWith('/api/'),
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/api/info', async () => ({ name: options.siteName ?? '', ...(await options.siteInfo?.()) }));
  app.get('/metrics', async (_request, reply) => {
    reply.type('text/plain; version=0.0.4');
    return metrics.render();
  });
  const access = options.access;
  if (access) {
    // Search, suggestions and the snippets in search results: what holds page content; and
    // clicks, which record queries and pages only a searcher may know.
    const guarded = new Set(['/api/search', '/api/suggest', '/api/click']);
    const allowOrAnswer401 = access.hook();
    app.addHook('onRequest', async (request, reply) => {
      if (guarded.has(request.routeOptions.url ?? '')) return allowOrAnswer401(request, reply);
    });
    registerSignInRoutes(app, access);
  }
  const searching = new Set(['/api/search', '/api/suggest']);
  const turns = options.searchTurns;
  if (turns) {
    app.addHook('preHandler', async (request, reply) => {
      if (!searching.has(request.routeOptions.url ?? '')) return;
      const turn = turns.enter();
      // 'close' fires when the answer is sent or the client has gone.
      reply.raw.once('close', turn.leave);
      if (request.raw.socket?.destroyed) turn.leave();
      if (turn.ready === undefined) return;
      const waitStarted = performance.now();
      await turn.ready;
      turnWaits.set(request, performance.now() - waitStarted);
    });
  }
  // After the turns' hook: a search's own span starts once its turn has come.
  if (options.slowSearchMs) logSlowSearches(app, new SlowSearchLog(options.slowSearchMs), searching, turnWaits);
  const analytics = options.analytics;
  // A search is recorded once, when its first page is answered (paging is the same search).
  registerSearchRoute(app, options.search, analytics ? (query, result) => query.page === 1 && analytics.store.recordSearch(query.q, filtersOf(query), result.total) : undefined);
  registerSuggestRoute(app, options.search, access ? () => access.status().privateContent : undefined);
  if (analytics) registerClickRoute(app, analytics.engine, analytics.store);
  registerOpenSearchRoute(app, options.siteName);
  for (const plugin of options.plugins ?? []) await plugin(app);

  const webRoot = options.webRoot ?? WEB_ROOT;
  if (existsSync(join(webRoot, 'index.html'))) {
    await app.register(fastifyStatic, { root: webRoot, prefix: '/', index: 'index.html' });
    app.get('/admin', (_request, reply) => reply.sendFile('admin.html'));
  }
  return app;
}

/** Logs the searches over the log's threshold (see slow-searches.ts). */
function logSlowSearches(app: FastifyInstance, log: SlowSearchLog, routes: ReadonlySet<string>, turnWaits: WeakMap<FastifyRequest, number>): void {
  const marks = new WeakMap<FastifyRequest, SearchMark>();
  app.addHook('onRequest', async (request) => {
    if (routes.has(request.routeOptions.url ?? '')) marks.set(request, log.mark());
  });
  app.addHook('preHandler', async (request) => {
    const mark = marks.get(request);
    if (mark) log.markStep(mark, 'handler');
  });
  app.addHook('onSend', async (request) => {
    const mark = marks.get(request);
    if (mark) log.markStep(mark, 'answered');
  });
  app.addHook('onResponse', async (request) => {
    const mark = marks.get(request);
    if (mark) log.measure(mark, turnWaits.get(request), (slow) => request.log.warn({ url: request.url, slowSearch: slow }, 'slow search'));
  });
  app.addHook('onClose', async () => log.close());
}

/** The filters and order of a search, as analytics records them. */
function filtersOf(query: EngineQuery): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const name of ['lang', 'host', 'section', 'type'] as const) if (query[name]?.length) filters[name] = query[name]!;
  if (query.sort === 'date') filters.sort = ['date'];
  return filters;
}
