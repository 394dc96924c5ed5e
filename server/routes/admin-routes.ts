/**
 * The admin API (`/api/admin/…`): estimation rounds, crawls, re-crawls, status, schedules.
 * Every route needs `Authorization: Bearer <token>`, compared in constant time; the token is
 * never logged (the logger redacts the header).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ESTIMATOR_NAMES, METHOD_NAMES } from '../../indexer/estimation/estimators.ts';
import type { SearchEngine } from '../../indexer/ranking/search-engine.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import type { TextIndex } from '../../indexer/text-index/text-index.ts';
import type { RoundStatus } from '../jobs/estimation-round.ts';
import type { JobRunner, JobStatus } from '../jobs/job-runner.ts';
import type { Schedules } from '../jobs/schedules.ts';
import { BEST_METHOD_NAME } from '../report/experiment-report.ts';
import { registerDocumentsRoute } from './documents-route.ts';
import { strictAdminSchemas } from './strict-admin.ts';

export interface AdminDeps {
  token: string;
  runner: JobRunner;
  store: CrawlStore;
  index: TextIndex;
  engine: SearchEngine;
  schedules?: Schedules;
  rateLimitPerMinute: number;
  /** Bytes of one batch pushed to `POST /documents` (default 64 MiB). */
  documentsBatchBytes?: number;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Constant-time comparison of a presented token with the expected one (hashing equalises lengths). */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** An onRequest hook answering 401 unless the request carries the admin token. */
export function adminTokenHook(token: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!tokenMatches(bearer(request), token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ statusCode: 401, error: 'Unauthorized', message: 'a valid admin token is required' });
    }
  };
}

const roundBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    selector: { type: 'string', enum: [...METHOD_NAMES], default: 'default' },
    estimator: { type: 'string', enum: [...ESTIMATOR_NAMES] },
    iterations: { type: 'integer', minimum: 1, maximum: 1000, default: 10 },
    pagesPerIteration: { type: 'integer', minimum: 1, maximum: 100_000 },
    extraPages: { type: 'integer', minimum: 1, maximum: 10_000_000 },
    /** Start over from the local pages instead of the supergraph earlier rounds built. */
    fresh: { type: 'boolean', default: false },
  },
  not: { required: ['pagesPerIteration', 'extraPages'] },
} as const;

export function adminRoutes(deps: AdminDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(
      async (admin) => {
        admin.addHook('onRequest', adminTokenHook(deps.token));
        strictAdminSchemas(admin);
        const limit = { config: { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: '1 minute' } } };

        admin.post<{ Body: { selector: string; estimator?: string; iterations: number; pagesPerIteration?: number; extraPages?: number; fresh: boolean } }>(
          '/rounds',
          { ...limit, schema: { body: roundBody } },
          async (request, reply) => {
            const { selector, estimator, iterations, pagesPerIteration, extraPages, fresh } = request.body;
            const id = deps.runner.submitRound({ selector, estimator, iterations, pagesPerIteration, extra: extraPages !== undefined ? String(extraPages) : undefined, fresh });
            return reply.code(202).send({ id });
          },
        );
        admin.get('/rounds', limit, async () => {
          const rounds = await deps.runner.rounds();
          return { rounds: rounds.map(roundView), history: roundHistory(rounds) };
        });
        admin.get<{ Params: { id: string } }>('/rounds/:id', limit, async (request, reply) => {
          const round = await deps.runner.round(request.params.id);
          if (!round) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no round ${request.params.id}` });
          return roundView(round);
        });
        admin.delete<{ Params: { id: string } }>('/rounds/:id', limit, async (request, reply) => {
          if (!(await deps.runner.round(request.params.id))) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no round ${request.params.id}` });
          const cancelled = deps.runner.cancel(request.params.id);
          return reply.code(cancelled ? 202 : 409).send({ id: request.params.id, cancelled });
        });
        admin.get<{ Params: { id: string } }>('/rounds/:id/events', async (request, reply) => {
          const id = request.params.id;
          const round = await deps.runner.round(id);
          if (!round) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no round ${id}` });
          streamEvents(reply, deps.runner, id, roundView(round));
          return reply;
        });

        admin.post<{ Body: { maxPages?: number } }>(
          '/crawls',
          { ...limit, schema: { body: { type: 'object', additionalProperties: false, properties: { maxPages: { type: 'integer', minimum: 1, maximum: 10_000_000 } } } } },
          async (request, reply) => reply.code(202).send({ id: deps.runner.submitCrawl(request.body?.maxPages) }),
        );
        admin.post<{ Body: { budget?: number; policy?: 'sqrt-rate' | 'uniform' } }>(
          '/recrawls',
          {
            ...limit,
            schema: {
              body: {
                type: 'object',
                additionalProperties: false,
                properties: { budget: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 200 }, policy: { type: 'string', enum: ['sqrt-rate', 'uniform'] } },
              },
            },
          },
          async (request, reply) => reply.code(202).send({ id: deps.runner.submitRecrawl({ budget: request.body?.budget ?? 200, policy: request.body?.policy }) }),
        );
        admin.get('/jobs', limit, async () => ({ jobs: deps.runner.list() }));
        admin.get<{ Params: { id: string } }>('/jobs/:id', limit, async (request, reply) => {
          const job = deps.runner.status(request.params.id);
          return job ?? reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no job ${request.params.id}` });
        });

        admin.post<{ Params: { id: string } }>('/jobs/:id/apply-index', limit, async (request, reply) => {
          if (!(await deps.runner.applyHeldIndexChange(request.params.id))) {
            return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `job ${request.params.id} has no held index change` });
          }
          return { applied: request.params.id };
        });

        registerDocumentsRoute(admin, { store: deps.store, runner: deps.runner, maxBatchBytes: deps.documentsBatchBytes }, limit);
        admin.get('/status', limit, async () => status(deps));
        admin.get<{ Querystring: { limit?: number } }>(
          '/pages/divergence',
          { ...limit, schema: { querystring: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: 500, default: 20 } } } } },
          async (request) => ({ pages: await divergence(deps, request.query.limit ?? 20) }),
        );
        admin.post<{ Params: { name: string } }>('/schedules/:name/run', limit, async (request, reply) => {
          const id = deps.schedules?.runNow(request.params.name);
          if (id === undefined) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no schedule ${request.params.name}` });
          if (id === null) return reply.code(409).send({ statusCode: 409, error: 'Conflict', message: `a ${request.params.name} job is already queued or running` });
          return reply.code(202).send({ id });
        });
      },
      { prefix: '/api/admin' },
    );
  };
}

/** The round as the API shows it. */
function roundView(round: RoundStatus) {
  const { id, state, selector, iteration, iterations, crawled, frontier, change, l1ToTruth, error, history, localPages, extraPages, startedAt, finishedAt, version, startPages, continuedFrom, fresh, roundChange } = round;
  return { id, state, selector, iteration, iterations, crawled, frontier, change, l1ToTruth, error, history, localPages, extraPages, startedAt, finishedAt, version, startPages, continuedFrom, fresh, roundChange };
}

/** The estimate over the finished rounds, oldest first: pages crawled in all, the change since the last round, the L1 to the truth where known. */
function roundHistory(rounds: readonly RoundStatus[]) {
  return rounds
    .filter((r) => r.state === 'done')
    .map((r) => ({ id: r.id, finishedAt: r.finishedAt, crawled: r.crawled, newPages: r.crawled - (r.startPages ?? 0), fresh: r.fresh ?? true, roundChange: r.roundChange, l1ToTruth: r.l1ToTruth }))
    .reverse();
}

/** Server-sent events: the round's status now, then on every change, until it ends. */
function streamEvents(reply: FastifyReply, runner: JobRunner, id: string, initial: ReturnType<typeof roundView>): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-content-type-options': 'nosniff' });
  const send = (event: string, data: unknown) => raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('status', initial);
  const over = (s: string) => s === 'done' || s === 'failed' || s === 'cancelled';
  if (over(initial.state)) {
    raw.end();
    return;
  }
  const onJob = (job: JobStatus) => {
    if (job.round) send('status', roundView(job.round));
    else send('status', { id, state: job.state });
    if (over(job.state)) finish();
  };
  const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
  const finish = () => {
    clearInterval(heartbeat);
    runner.off(`job:${id}`, onJob);
    raw.end();
  };
  runner.on(`job:${id}`, onJob);
  raw.on('close', () => {
    clearInterval(heartbeat);
    runner.off(`job:${id}`, onJob);
  });
}

async function status(deps: AdminDeps) {
  const byRole: Record<string, Record<string, number>> = {};
  const hosts = new Set<string>();
  for await (const [, page] of deps.store.pages()) {
    byRole[page.role] ??= {};
    byRole[page.role][page.state] = (byRole[page.role][page.state] ?? 0) + 1;
    hosts.add(page.host);
  }
  let frontier = 0;
  for await (const entry of deps.store.frontier()) if (entry) frontier++;
  const rounds = await deps.runner.rounds();
  return {
    pages: byRole,
    frontier,
    hosts: hosts.size,
    index: deps.index.info(),
    rankVersion: deps.engine.rankVersion,
    lastRound: rounds[0] ? roundView(rounds[0]) : null,
    roundHistory: roundHistory(rounds),
    jobs: deps.runner.list().slice(0, 20),
    /** Crawl and re-crawl index changes held back by the removal guard, with why. */
    heldIndexChanges: deps.runner.heldIndexChanges(),
    schedules: deps.schedules?.list() ?? [],
    /** What `selector: best` runs, for the round form. */
    bestMethod: BEST_METHOD_NAME,
  };
}

/** Local pages whose estimated global PageRank differs most (by ratio) from their local PageRank. */
async function divergence(deps: AdminDeps, limit: number) {
  const { store } = deps;
  const estimate = await store.latestRanks('estimate');
  const local = await store.latestRanks('local');
  if (!estimate || !local) return [];
  const localById = new Map<number, number>();
  local.ids.forEach((id, i) => localById.set(id, local.values[i]));
  const rows = Array.from(estimate.ids, (id, i) => {
    const l = localById.get(id) ?? 0;
    const g = estimate.values[i];
    return { id, url: store.urlOf(id) ?? '', localPageRank: l, globalPageRank: g, ratio: l > 0 ? g / l : Infinity };
  });
  rows.sort((a, b) => Math.abs(Math.log(b.ratio)) - Math.abs(Math.log(a.ratio)));
  return rows.slice(0, limit);
}
