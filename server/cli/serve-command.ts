/**
 * `lse index` (re)builds the text index of a data directory; `lse serve` serves it.
 */
import type { Settings } from '../../config/schema.ts';
import { loadRankSnapshot, SearchEngine } from '../../indexer/ranking/search-engine.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { indexableDocuments } from '../../indexer/text-index/store-adapter.ts';
import { TextIndex } from '../../indexer/text-index/text-index.ts';
import { buildApp } from '../app.ts';
import { storeLocalPageRank } from '../jobs/local-pagerank.ts';
import { fetchFlagOptions, fetchFlagOverrides, settingsForDataDir } from './crawl-command.ts';
import { numberFlag, parseFlags } from './flags.ts';

export const indexUsage = `lse index [--data DIR] [--config FILE]

  (Re)builds the text index of the data directory from its stored local pages (segments built
  on both cores, saved under DIR/index) and its local PageRank.`;

export const serveUsage = `lse serve [--data DIR] [--host 127.0.0.1] [--port 8080] [fetch flags]

  Serves the search page (/) and API (/api/search) of a data directory; /healthz, /metrics.`;

/** Builds the index and the local PageRank of a store; returns the number of documents. */
export async function buildIndex(store: CrawlStore, settings: Settings): Promise<{ documents: number; index: TextIndex }> {
  await storeLocalPageRank(store, settings.estimation.alpha, settings.estimation.tolerance);
  const index = await TextIndex.open(settings.dataDir, { maxSegmentDocs: settings.index.segmentSize });
  const info = await index.rebuild(indexableDocuments(store));
  return { documents: info.documentCount, index };
}

export async function indexCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { config: { type: 'string' }, data: { type: 'string' } }, 'index');
  const { settings, store } = await settingsForDataDir(flags, {});
  try {
    const started = performance.now();
    const { documents, index } = await buildIndex(store, settings);
    await index.close();
    process.stdout.write(`indexed ${documents} pages in ${((performance.now() - started) / 1000).toFixed(1)} s (${index.info().segments.length} segments)\n`);
    return 0;
  } finally {
    await store.close();
  }
}

export interface Serving {
  url: string;
  close(): Promise<void>;
}

/** Opens the index and ranks of a store and serves them until closed. */
export async function serveStore(store: CrawlStore, settings: Settings, listen: { host: string; port: number }, index?: TextIndex): Promise<Serving> {
  const textIndex = index ?? (await TextIndex.open(settings.dataDir, { maxSegmentDocs: settings.index.segmentSize }));
  const engine = new SearchEngine(textIndex, await loadRankSnapshot(store), { blend: settings.ranking.blend, weight: settings.ranking.weight });
  const app = await buildApp({ search: engine, rateLimitPerMinute: settings.server.rateLimitPerMinute, logger: { level: 'warn' } });
  const address = await app.listen({ host: listen.host, port: listen.port });
  return {
    url: address,
    close: async () => {
      await app.close();
      await textIndex.close();
    },
  };
}

/** Resolves on SIGINT / SIGTERM: the server finishes its requests, then the store closes. */
export function untilSignalled(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

export async function serveCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { ...fetchFlagOptions, host: { type: 'string' }, port: { type: 'string' } }, 'serve');
  const { settings, store } = await settingsForDataDir(flags, fetchFlagOverrides(flags));
  try {
    const serving = await serveStore(store, settings, { host: flags.host ?? settings.server.host, port: numberFlag(flags.port, 'port') ?? settings.server.port });
    process.stdout.write(`search page: ${serving.url}/\n`);
    await untilSignalled();
    await serving.close();
    return 0;
  } finally {
    await store.close();
  }
}
