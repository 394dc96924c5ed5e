/**
 * Every setting of lse with its default and its validation. Values come from (later wins):
 * the defaults here, a JSON config file (`--config FILE`), environment variables
 * (`LSE_<SECTION>_<KEY>` in upper snake case, e.g. `LSE_CRAWLER_MAX_PAGES=500`,
 * plus `LSE_ADMIN_TOKEN` and `LSE_DATA`), and command-line flags.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { estimationSettingsSchema } from './estimation.ts';

const hostPort = /^(\*|\*\.[^:\s]+|[^:\s*]+):\d{1,5}$/;
const addrPort = /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/;
/** Where credentials go: `scheme://host[:port]` (host may be `*.suffix`), or a bare host of the older form. */
const credentialOrigin = /^https?:\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?\/?$/;
const credentialHost = /^\s*(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\s*$/;

export const crawlerSettingsSchema = z
  .object({
    userAgent: z.string().min(1).default('lse-bot/0.1 (localized search engine)'),
    /**
     * A page or mailto: address where site owners learn who crawls them and how to reach you;
     * sent in the User-Agent as `(+URL)`. Strongly advised before crawling other people's sites.
     */
    contactUrl: z.string().regex(/^(https?:\/\/|mailto:)\S+$/, 'an http(s) URL or a mailto: address').optional(),
    /** The product token matched against robots.txt user-agent lines. */
    robotsAgent: z.string().regex(/^[A-Za-z_-]+$/, 'letters, "_" and "-" only').default('lse-bot'),
    concurrency: z.number().int().min(1).max(1024).default(16),
    perHostConcurrency: z.number().int().min(1).max(64).default(1),
    /** Seconds between request starts to one host (robots Crawl-delay can raise it up to the cap). */
    delaySeconds: z.number().min(0).max(3600).default(1),
    maxCrawlDelaySeconds: z.number().min(0).max(3600).default(30),
    connectTimeoutMs: z.number().int().min(1).default(10_000),
    headersTimeoutMs: z.number().int().min(1).default(15_000),
    bodyTimeoutMs: z.number().int().min(1).default(30_000),
    maxBodyBytes: z.number().int().min(1024).default(5 * 1024 * 1024),
    /** Links kept per page, the first in document order (Heritrix keeps 6,000, Nutch 100); the rest are dropped and logged. */
    maxLinksPerPage: z.number().int().min(1).max(1_000_000).default(5000),
    maxRedirects: z.number().int().min(0).max(20).default(5),
    allowPrivateNetworks: z.boolean().default(false),
    /** Like curl --resolve: `{"host:port": "addr:port"}`; host may be `*` or `*.suffix`. */
    resolve: z
      .record(z.string(), z.string().regex(addrPort, 'values are addr:port'))
      .superRefine((map, context) => {
        for (const key of Object.keys(map)) {
          if (!hostPort.test(key)) context.addIssue({ code: 'custom', path: [key], message: `"${key}": keys are host:port (host may be * or *.suffix)` });
        }
      })
      .default({}),
    seeds: z.array(z.url({ protocol: /^https?$/ })).default([]),
    /** Local-domain scope: `host:SUFFIX`, `prefix:URL`, `regex:RE`. */
    scope: z.array(z.string().min(3)).default([]),
    /**
     * Intranets: headers, cookies and HTTP Basic credentials per origin (`https://host`,
     * `http://host:8080`, `https://*.suffix`), sent to those origins only (never to another port
     * or scheme, never after a redirect to another origin, never over http after https), never
     * logged or shown. `hosts` (bare host names) is the older form: a host on its default ports,
     * https 443 and http 80. From the settings file or LSE_CRAWLER_CREDENTIALS (JSON).
     */
    credentials: z
      .array(
        z
          .object({
            origins: z.array(z.string().regex(credentialOrigin, 'an origin such as https://intranet.example or http://wiki.example:8080 (scheme, host or *.suffix, optional port; no path)')).min(1).optional(),
            hosts: z.array(z.string().regex(credentialHost, 'a host name or *.suffix pattern (use "origins" for a scheme or port)')).min(1).optional(),
            headers: z.record(z.string(), z.string()).optional(),
            cookies: z.record(z.string(), z.string()).optional(),
            basic: z.object({ username: z.string(), password: z.string() }).strict().optional(),
          })
          .strict()
          .refine((rule) => rule.origins !== undefined || rule.hosts !== undefined, 'name the origins the credentials are for ("origins": ["https://intranet.example"])'),
      )
      .default([]),
    /**
     * Rendering pages built by scripts in headless Chromium: pages whose static text is shorter
     * than `minTextChars`, and pages whose URL matches one of `urlPatterns` (regular expressions).
     * Off by default. The page's own requests go through the crawl's scope, robots.txt and fetcher.
     */
    render: z
      .object({
        enabled: z.boolean().default(false),
        executablePath: z.string().min(1).default('/usr/bin/chromium'),
        urlPatterns: z
          .array(
            z.string().refine((pattern) => {
              try {
                new RegExp(pattern);
                return true;
              } catch {
                return false;
              }
            }, 'a regular expression'),
          )
          .default([]),
        minTextChars: z.number().int().min(0).default(200),
        concurrency: z.number().int().min(1).max(32).default(2),
        timeoutSeconds: z.number().gt(0).max(600).default(20),
        /** V8 heap of each renderer process, in MB. */
        memoryMb: z.number().int().min(32).max(8192).default(256),
      })
      .strict()
      .default({ enabled: false, executablePath: '/usr/bin/chromium', urlPatterns: [], minTextChars: 200, concurrency: 2, timeoutSeconds: 20, memoryMb: 256 }),
    /** Read sitemaps: robots.txt `Sitemap:` lines, else /sitemap.xml, of the seeds' origins (not for topic crawls). */
    sitemaps: z.boolean().default(true),
    /** More sitemaps to read (any host; the pages they list must be in scope). */
    sitemapUrls: z.array(z.url({ protocol: /^https?$/ })).default([]),
    /**
     * What reading sitemaps may cost: files per host, seconds per file (download and parsing
     * together) and seconds per host over all its files; what is over is skipped and logged.
     */
    sitemapBudget: z
      .object({
        filesPerHost: z.number().int().min(1).default(1000),
        fileSeconds: z.number().gt(0).max(3600).default(60),
        hostSeconds: z.number().gt(0).max(86_400).default(600),
      })
      .strict()
      .default({ filesPerHost: 1000, fileSeconds: 60, hostSeconds: 600 }),
    /**
     * PDF, DOCX and ODT documents: read in child processes, each under a time and a memory limit;
     * larger files than their type's limit are refused (recorded as failed with the reason).
     */
    documents: z
      .object({
        enabled: z.boolean().default(true),
        pdfMaxBytes: z.number().int().min(1024).default(50 * 1024 * 1024),
        docxMaxBytes: z.number().int().min(1024).default(20 * 1024 * 1024),
        odtMaxBytes: z.number().int().min(1024).default(20 * 1024 * 1024),
        /** Largest uncompressed size a zip entry of an office file may have, declared or actual (zip bombs). */
        zipEntryMaxBytes: z.number().int().min(1024).default(100 * 1024 * 1024),
        timeoutSeconds: z.number().gt(0).max(3600).default(30),
        /**
         * Memory of a parsing process for its document, in MB: the V8 heap of its worker thread, and
         * its data segment beyond start-up (RLIMIT_DATA, which also counts the buffers pdf.js inflates).
         */
        memoryMb: z.number().int().min(32).max(8192).default(512),
        workers: z.number().int().min(1).max(64).default(2),
      })
      .strict()
      .default({ enabled: true, pdfMaxBytes: 50 * 1024 * 1024, docxMaxBytes: 20 * 1024 * 1024, odtMaxBytes: 20 * 1024 * 1024, zipEntryMaxBytes: 100 * 1024 * 1024, timeoutSeconds: 30, memoryMb: 512, workers: 2 }),
    /** Focused crawling: driving query terms and the similarity a page needs to be in the domain. */
    topic: z.object({ terms: z.array(z.string().min(1)).min(1), threshold: z.number().min(0).max(1).default(0.1) }).optional(),
    ordering: z.enum(['bfs', 'backlinks', 'pagerank', 'rankmass', 'windowed-rankmass', 'lneighbor', 'focused']).default('bfs'),
    /** RankMass stops when the guaranteed coverage reaches 1 − ε. */
    rankMassEpsilon: z.number().gt(0).lt(1).default(0.01),
    rankMassWindow: z.number().gt(0).max(1).default(0.1),
    maxPages: z.number().int().min(1).default(1000),
    maxDepth: z.number().int().min(0).default(50),
    /** Pages fetched per host at most (spider traps, link farms). */
    hostPageBudget: z.number().int().min(1).default(5000),
    /** Pages fetched per pay-level domain outside the local domain (estimation rounds): top-ranked / rest. */
    pldBudgetTop: z.number().int().min(0).default(200),
    pldBudgetRest: z.number().int().min(0).default(10),
    pldTopCount: z.number().int().min(0).default(50),
    stripTracking: z.boolean().default(true),
    /** The paper's crawls skipped URLs containing `?`, `*`, `@` or `=`. */
    skipDynamicUrls: z.boolean().default(false),
    maxUrlLength: z.number().int().min(16).default(2048),
    maxPathDepth: z.number().int().min(1).default(16),
    robotsCacheHours: z.number().positive().default(24),
    /**
     * How far V8 lets the heap of a crawling process grow past what the last full collection
     * kept, in percent (0: V8's own choice, up to 300 %). Crawls allocate much and keep little.
     */
    heapGrowthPercent: z.number().int().min(0).max(300).default(50),
    /** Near-duplicate threshold on the MinHash resemblance estimate. */
    nearDuplicateThreshold: z.number().gt(0).max(1).default(0.9),
  })
  .strict();

export const serverSettingsSchema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    /** The name the search page shows (default: the local domain's host). */
    siteName: z.string().min(1).max(80).optional(),
    /** The search box's placeholder, e.g. "telescope, admissions, library hours…" (default: none). */
    searchPlaceholder: z.string().trim().min(1).max(120).optional(),
    /** Example queries offered on the empty page (default: the site's popular queries that had results). */
    exampleQueries: z.array(z.string().trim().min(1).max(100)).max(8).optional(),
    port: z.number().int().min(0).max(65_535).default(8080),
    /** Bearer token of the admin API; from LSE_ADMIN_TOKEN, or generated and printed once. */
    adminToken: z.string().min(16, 'at least 16 characters').optional(),
    /**
     * Token signed-in searchers present (Bearer or the /signin cookie) while the index holds
     * pages fetched with credentials; from LSE_SEARCH_TOKEN.
     */
    searchToken: z.string().min(16, 'at least 16 characters').optional(),
    /** Pages fetched with credentials may be searched by anyone (the admin API can change it). */
    publicSearch: z.boolean().default(false),
    /** Requests per minute per client on the search API. */
    rateLimitPerMinute: z.number().int().min(1).default(600),
    adminRateLimitPerMinute: z.number().int().min(1).default(60),
    /**
     * A search or suggestion that takes the server longer than this is logged (warn) with where
     * its time went: on a CPU, waiting for one, reading index files, collecting garbage, waiting
     * for its turn beside a job. 0: no log.
     */
    slowSearchMs: z.number().int().min(0).max(600_000).default(100),
    /** Bytes of one batch of pages pushed to `POST /api/admin/documents` (read as a stream, line by line). */
    documentsBatchBytes: z.number().int().min(1024).default(64 * 1024 * 1024),
    /**
     * Which reverse proxies to believe about the client (X-Forwarded-For, -Proto, -Host): false
     * (none: the peer is the client), true (any peer: only when nothing but the proxy can reach
     * the server), or the proxies' addresses or CIDR ranges (`["127.0.0.1", "10.0.0.0/8"]`). Rate
     * limits then count per client and cookies get `Secure` on https. (No hop count: fastify
     * ignores one, as it cannot tell whether the nearest peer is a proxy.)
     */
    trustProxy: z
      .union([
        z.boolean(),
        z.array(z.string().refine(isAddressOrRange, 'an IP address or a CIDR range such as 10.0.0.0/8')).min(1),
      ])
      .default(false),
  })
  .strict();

/** `10.1.2.3`, `::1`, `10.0.0.0/8`, `fd00::/8`. */
function isAddressOrRange(text: string): boolean {
  const [address, bits, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export const indexSettingsSchema = z
  .object({
    /** Documents per text-index segment. */
    segmentSize: z.number().int().min(100).max(100_000).default(1000),
    /**
     * Segments of one tier that merge into one segment of the next (tiers of segmentSize pages,
     * times this, times this again …; indexer/text-index/merge-policy.ts). 10: 1M pages live in
     * ten segments of 100k and at most nine of each smaller tier.
     */
    segmentsPerTier: z.number().int().min(2).max(100).default(10),
    /** Live pages a merged segment holds at most (merges stop growing segments there). */
    maxMergedSegmentSize: z.number().int().min(1_000).max(10_000_000).default(100_000),
    /**
     * Megabytes of postings kept in memory once a query has read them (the rest stay in the
     * segments' files, in the operating system's page cache): 0 reads every list from its file.
     * An eighth more keeps the inflated blocks of the pages whose passages were shown.
     */
    postingsCacheMb: z.number().int().min(0).max(1_048_576).default(1024),
    /**
     * Before it listens, `lse serve` reads the longest postings lists into that cache (the common
     * words' lists, which the first searches would otherwise read and summarise one by one), at
     * most three quarters of it, until this many milliseconds after the process started: warming
     * fills what is left of a start's time and never makes a slow start slower. 0 starts cold.
     */
    warmUntilMs: z.number().int().min(0).max(600_000).default(7_000),
    /**
     * The last this many milliseconds of that time go to searches instead (the site's most asked
     * queries of the last 30 days, then queries of its most frequent words, 200 at most): they
     * compile the search's code and read what the first visitors' searches would. 0: lists only.
     */
    warmSearchesMs: z.number().int().min(0).max(600_000).default(1_000),
    /**
     * A crawl or re-crawl that would remove more than this share of the indexed pages is held:
     * the index keeps serving what it had until an admin applies the change (1 turns it off).
     */
    maxRemovedShare: z.number().min(0).max(1).default(0.1),
  })
  .strict();

export const rankingSettingsSchema = z
  .object({
    /**
     * How text relevance and global PageRank combine (indexer/ranking/blend.ts). `prior` 0.5 was
     * chosen on judged documentation queries (`npm run bench -- relevance/sweep`, docs/search.md).
     */
    blend: z.enum(['log-linear', 'multiplicative', 'saturating', 'prior']).default('prior'),
    /** Weight of the link-based part (0 = text only; for the normalised forms 1 = rank only). */
    weight: z.number().min(0).max(1).default(0.5),
  })
  .strict();

export const searchSettingsSchema = z
  .object({
    /** Synonym sets used at query time (`[["car", "automobile"]]`); the admin page adds more. */
    synonyms: z.array(z.array(z.string().trim().min(1).max(100)).min(2).max(50)).max(10_000).default([]),
    /** Best bets: a query (or `prefix*`) → URLs shown first, marked as recommended. */
    bestBets: z
      .array(z.object({ pattern: z.string().trim().min(1).max(200), urls: z.array(z.string().url()).min(1).max(20) }).strict())
      .max(10_000)
      .default([]),
    /** Days search analytics are kept (older days are dropped). */
    analyticsRetentionDays: z.number().int().min(1).max(3650).default(90),
    /** Searches and clicks recorded per day at most: a flood past it is counted, not stored. */
    analyticsMaxRecordsPerDay: z.number().int().min(100).max(10_000_000).default(100_000),
    /** Matches in none of the visitor's languages are ordered as if their score were this share of it (1: no preference). */
    otherLanguageWeight: z.number().min(0).max(1).default(0.5),
  })
  .strict();

const cronExpression = z.string().regex(/^(\S+\s+){4,5}\S+$/, 'a cron expression such as "0 3 * * *"');

export const scheduleSettingsSchema = z
  .object({
    recrawl: cronExpression.optional(),
    /**
     * When the estimation round runs (default nightly at 02:15): each round continues from the
     * last one, so the estimate improves night after night. `off` runs none.
     */
    estimate: cronExpression.or(z.literal('off')).default('15 2 * * *'),
    /** Pages a scheduled round may fetch: a count or a multiple of the local domain size (default n). */
    estimateBudget: z.string().regex(/^(\d+|(\d+(\.\d+)?|\.\d+)n)$/, 'a page count such as 1500 or a multiple such as 1n').default('1n'),
    /** Pages revisited per re-crawl cycle. */
    recrawlBudget: z.number().int().min(1).default(200),
  })
  .strict();

export const recrawlSettingsSchema = z
  .object({
    /**
     * A page that fails on a revisit (404, 410, 5xx, a network error) stays in the index until it
     * has failed on this many visits spread over at least this many days: a short outage loses
     * nothing, a page really gone leaves on the next visit a day later.
     */
    dropAfter: z.object({ days: z.number().min(0).max(365).default(1), failures: z.number().int().min(1).max(100).default(2) }).strict().default({ days: 1, failures: 2 }),
    /** A page that left the index (gone or failing) is checked again after this many hours, doubling each failed check up to `maxRetryDays`. */
    retryAfterHours: z.number().min(0).max(24 * 365).default(24),
    maxRetryDays: z.number().min(0).max(365).default(30),
  })
  .strict();

export const settingsSchema = z
  .object({
    dataDir: z.string().min(1).default('data'),
    crawler: crawlerSettingsSchema.default(crawlerSettingsSchema.parse({})),
    estimation: estimationSettingsSchema.strict().default(estimationSettingsSchema.parse({})),
    server: serverSettingsSchema.default(serverSettingsSchema.parse({})),
    index: indexSettingsSchema.default(indexSettingsSchema.parse({})),
    ranking: rankingSettingsSchema.default(rankingSettingsSchema.parse({})),
    schedules: scheduleSettingsSchema.default(scheduleSettingsSchema.parse({})),
    search: searchSettingsSchema.default(searchSettingsSchema.parse({})),
    recrawl: recrawlSettingsSchema.default(recrawlSettingsSchema.parse({})),
  })
  .strict();

export type Settings = z.infer<typeof settingsSchema>;
export type CrawlerSettings = z.infer<typeof crawlerSettingsSchema>;
export type RecrawlSettings = z.infer<typeof recrawlSettingsSchema>;
