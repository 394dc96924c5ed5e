/**
 * A real search site for tests: the demo web's university site crawled (test/helpers/demo-data-dir.ts),
 * a short estimation round, the text index, and the fastify app over them. Building it takes a
 * few seconds, so a test file builds it once (beforeAll).
 */
import type { FastifyInstance } from 'fastify';
import type { DemoWeb } from '../../crawler/demo-web/generate.ts';
import { loadRankSnapshot, SearchEngine } from '../../indexer/ranking/search-engine.ts';
import type { CrawlStore } from '../../indexer/store/crawl-store.ts';
import { loadSearchData } from '../../indexer/ranking/search-data.ts';
import { buildApp } from '../../server/app.ts';
import { DEMO_SITE_WORDS } from '../../server/cli/demo-command.ts';
import { SiteWordsSource } from '../../server/search-admin/site-words.ts';
import { buildDemoDataDir } from './demo-data-dir.ts';

export interface DemoSearchSite {
  /** The search app; not listening unless `listen` was asked for. */
  app: FastifyInstance;
  /** `http://127.0.0.1:PORT` when listening. */
  url?: string;
  /** The engine the app searches (to build another app over it). */
  engine: SearchEngine;
  store: CrawlStore;
  web: DemoWeb;
  /** Local pages in the index. */
  documents: number;
  close(): Promise<void>;
}

export interface DemoSearchSiteOptions {
  /** Listen on 127.0.0.1 on a free port (for a browser). */
  listen?: boolean;
}

export async function buildDemoSearchSite(options: DemoSearchSiteOptions = {}): Promise<DemoSearchSite> {
  // A short round is enough for global estimates that differ from the local PageRank.
  const data = await buildDemoDataDir({ round: { iterations: 3, extra: '0.3n' } });
  let app: FastifyInstance | undefined;
  const close = async () => {
    await app?.close();
    await data.close();
  };
  try {
    const engine = new SearchEngine(data.index, await loadRankSnapshot(data.store), { blend: 'log-linear', weight: 0.3 });
    await loadSearchData(engine, data.store);
    const words = new SiteWordsSource({ ...data.settings.server, ...DEMO_SITE_WORDS }, data.store, undefined);
    await words.refresh();
    app = await buildApp({
      search: engine,
      logger: false,
      siteName: DEMO_SITE_WORDS.siteName,
      // As `npm start` serves it: the university's placeholder and examples, and the round's outside pages.
      siteInfo: () => ({ ...words.words() }),
    });
    const url = options.listen ? await app.listen({ host: '127.0.0.1', port: 0 }) : undefined;
    return { app, url, engine, store: data.store, web: data.web, documents: data.documents, close };
  } catch (error) {
    await close();
    throw error;
  }
}
