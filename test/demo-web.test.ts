import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import * as cheerio from 'cheerio';
import { getDomain } from 'tldts';
import { request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageRank } from '../indexer/pagerank.ts';
import {
  contentVersion,
  DAY_MS,
  DEMO_LOCAL_HOST,
  DEMO_SEED_URL,
  demoTrapPageAt,
  findDemoResource,
  generateDemoWeb,
  type DemoPage,
  type DemoResource,
  type DemoWeb,
} from '../crawler/demo-web/generate.ts';
import { demoWebGlobalPageRank, demoWebGraph, demoWebHostUrls, demoWebTruePageRank } from '../crawler/demo-web/graph.ts';
import { demoPageLinks, resolveDemoHref } from '../crawler/demo-web/links.ts';
import { renderDemoPage } from '../crawler/demo-web/render.ts';
import { demoWebDispatcher, startDemoWebServer, type DemoWebServer } from '../crawler/demo-web/server.ts';

const SMALL = { seed: 7, hosts: 40, pages: 3000 };

function digest(web: DemoWeb): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(web.hosts));
  hash.update(JSON.stringify(web.sites));
  hash.update(JSON.stringify(web.resources, (_, value) => (value instanceof Uint8Array ? createHash('sha256').update(value).digest('hex') : value)));
  hash.update(web.contentLinks.outOffsets);
  hash.update(web.contentLinks.outTargets);
  hash.update(JSON.stringify(web.landmarks));
  return hash.digest('hex');
}

function pages(web: DemoWeb): DemoPage[] {
  return web.resources.filter((r): r is DemoPage => r.kind === 'page');
}

function page(web: DemoWeb, url: string): DemoPage {
  const resource = findDemoResource(web, url);
  if (resource?.kind !== 'page') throw new Error(`${url} is not a page`);
  return resource;
}

/** What the server answers for a URL the web knows about (or a trap page). */
function expectedStatus(web: DemoWeb, url: string): number | undefined {
  const resource = findDemoResource(web, url);
  if (resource) return resource.kind === 'page' || resource.kind === 'file' ? 200 : resource.status;
  const { host, pathname, search } = new URL(url);
  return demoTrapPageAt(web, host, pathname + search) ? 200 : undefined;
}

describe('generateDemoWeb', () => {
  const web = generateDemoWeb(SMALL);

  it('is a pure function of its seed', () => {
    expect(digest(generateDemoWeb(SMALL))).toBe(digest(web));
    expect(digest(generateDemoWeb({ ...SMALL, seed: 8 }))).not.toBe(digest(web));
    const article = pages(web).find((p) => p.role === 'article')!;
    const version = contentVersion(article, web.epochMs + 30 * DAY_MS);
    expect(renderDemoPage(generateDemoWeb(SMALL), page(generateDemoWeb(SMALL), article.url), version)).toBe(renderDemoPage(web, article, version));
  });

  it('builds the default web of ~300 hosts and 15–25k pages in well under 2 s', () => {
    const started = performance.now();
    const whole = generateDemoWeb();
    const elapsed = performance.now() - started;
    expect(whole.hosts.length).toBe(300);
    expect(pages(whole).length).toBeGreaterThan(15_000);
    expect(pages(whole).length).toBeLessThan(25_000);
    expect(whole.localHost).toBe(DEMO_LOCAL_HOST);
    expect(whole.seedUrl).toBe(DEMO_SEED_URL);
    const local = whole.sites[whole.hosts[whole.hostIndex.get(DEMO_LOCAL_HOST)!].site];
    expect(local.pageCount).toBeGreaterThanOrEqual(300);
    expect(local.pageCount).toBeLessThanOrEqual(1000);
    expect(elapsed).toBeLessThan(5000); // ~0.3 s here; generous for slow CI
  });

  it('has power-law site sizes', () => {
    const whole = generateDemoWeb();
    const sizes = whole.sites.filter((s) => s.kind === 'regular').map((s) => s.pageCount).sort((a, b) => b - a);
    const median = sizes[sizes.length >> 1];
    expect(sizes[0] / median).toBeGreaterThan(20);
    // Least-squares slope of log(size) against log(rank) over the top 200 sites (Zipf: about -1).
    const points = sizes.slice(0, 200).map((size, r) => [Math.log(r + 1), Math.log(size)]);
    const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
    const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
    const slope = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
    expect(slope).toBeLessThan(-0.6);
    expect(slope).toBeGreaterThan(-1.5);
  });

  it('names hosts www.<word>-<word>.<tld>, with multi-part suffixes and shared pay-level domains', () => {
    const whole = generateDemoWeb();
    for (const host of whole.hosts) {
      expect(host.name).toMatch(/^[a-z]+\.[a-z0-9]+(-[a-z0-9]+)+\.[a-z.]+$/);
      expect(getDomain(host.name)).toBe(host.payLevelDomain);
    }
    const names = whole.hosts.map((h) => h.name);
    expect(names.some((n) => n.endsWith('.co.uk'))).toBe(true);
    expect(names.some((n) => n.endsWith('.com.au'))).toBe(true);
    const perDomain = new Map<string, number>();
    for (const host of whole.hosts) perDomain.set(host.payLevelDomain, (perDomain.get(host.payLevelDomain) ?? 0) + 1);
    expect([...perDomain.values()].filter((n) => n > 1).length).toBeGreaterThanOrEqual(5);
    expect(perDomain.get('northfield-university.edu')).toBe(2);
  });

  it('keeps most cross-site links within a topic and links the university from outside', () => {
    const { graph, urls, resourceIds } = demoWebGraph(web);
    const topicOf = (node: number) => web.sites[(web.resources[resourceIds[node]] as DemoPage).site]?.topic;
    const hostOf = (url: string) => new URL(url).host;
    let cross = 0;
    let sameTopic = 0;
    let intoLocal = 0;
    let outOfLocal = 0;
    for (let i = 0; i < graph.nodeCount; i++) {
      if (web.resources[resourceIds[i]].kind !== 'page') continue;
      for (let e = graph.outOffsets[i]; e < graph.outOffsets[i + 1]; e++) {
        const j = graph.outTargets[e];
        if (hostOf(urls[i]) === hostOf(urls[j]) || web.resources[resourceIds[j]].kind !== 'page') continue;
        if (hostOf(urls[j]) === DEMO_LOCAL_HOST) intoLocal++;
        if (hostOf(urls[i]) === DEMO_LOCAL_HOST) outOfLocal++;
        if (topicOf(i) < 0 || topicOf(j) < 0) continue;
        cross++;
        if (topicOf(i) === topicOf(j)) sameTopic++;
      }
    }
    expect(sameTopic / cross).toBeGreaterThan(0.6);
    expect(intoLocal).toBeGreaterThan(20);
    expect(outOfLocal).toBeGreaterThan(50);
  });

  it('writes readable text on topic', () => {
    const astronomy = web.topics.findIndex((t) => t.name === 'astronomy');
    const matches = pages(web).filter((p) => {
      const html = renderDemoPage(web, p, contentVersion(p, web.epochMs)).toLowerCase();
      return html.includes('astronomy') && html.includes('telescope');
    });
    expect(matches.length).toBeGreaterThan(10);
    expect(matches.filter((p) => p.topic === astronomy).length / matches.length).toBeGreaterThan(0.8);
  });

  it('gives pages change rates and a Poisson number of changes over time', () => {
    const news = page(web, web.landmarks.frequentlyChanging);
    expect(news.change.ratePerDay).toBeGreaterThanOrEqual(1);
    const start = contentVersion(news, web.epochMs);
    const later = contentVersion(news, web.epochMs + 100 * DAY_MS);
    expect(start.version).toBe(0);
    // Poisson(600): within five standard deviations.
    expect(Math.abs(later.version - 100 * news.change.ratePerDay)).toBeLessThan(5 * Math.sqrt(100 * news.change.ratePerDay));
    expect(later.etag).not.toBe(start.etag);
    expect(later.lastModifiedMs).toBeLessThanOrEqual(web.epochMs + 100 * DAY_MS);
    // Going back in time gives the earlier answer again.
    expect(contentVersion(news, web.epochMs + 10 * DAY_MS).version).toBeLessThan(later.version);
    const rates = pages(web).map((p) => p.change.ratePerDay).sort((a, b) => a - b);
    expect(rates[rates.length >> 1]).toBeLessThan(0.1); // most pages rarely change
  });
});

describe('demoWebGraph', () => {
  const web = generateDemoWeb(SMALL);

  it('resolves every link of every page to something the web answers', () => {
    const unanswered: string[] = [];
    for (const p of pages(web)) {
      for (const link of demoPageLinks(web, p)) {
        if (link.url !== null && expectedStatus(web, link.url) === undefined) unanswered.push(`${p.url} -> ${link.href}`);
      }
    }
    for (const trap of [web.landmarks.calendarTrap, web.landmarks.repeatingPathTrap]) {
      const { host, pathname } = new URL(trap);
      for (const link of demoTrapPageAt(web, host, pathname)!.links) {
        const url = resolveDemoHref(link.href, trap)!;
        if (expectedStatus(web, url) === undefined) unanswered.push(`${trap} -> ${link.href}`);
      }
    }
    expect(unanswered).toEqual([]);
  });

  it('renders exactly the links the graph is built from', () => {
    const local = pages(web).filter((p) => p.host === DEMO_LOCAL_HOST && p.body !== 'huge');
    for (const p of [...local, ...pages(web).filter((_, i) => i % 7 === 0)]) {
      const $ = cheerio.load(renderDemoPage(web, p, contentVersion(p, web.epochMs)));
      const rendered = $('a[href]')
        .map((_, a) => $(a).attr('href'))
        .get()
        .sort();
      expect(rendered, p.url).toEqual(demoPageLinks(web, p).map((l) => l.href).sort());
    }
  });

  it('follows the documented rules for redirects, nofollow, errors and traps', () => {
    const { graph, nodeOf } = demoWebGraph(web);
    const out = (url: string) => {
      const node = nodeOf.get(url)!;
      return Array.from(graph.outTargets.subarray(graph.outOffsets[node], graph.outOffsets[node + 1]));
    };
    const { landmarks } = web;
    expect(out(landmarks.redirects.permanent)).toEqual([nodeOf.get(`http://${DEMO_LOCAL_HOST}/about/`)]);
    expect(out(landmarks.redirects.loop[0])).toEqual([nodeOf.get(landmarks.redirects.loop[1])]);
    expect(out(landmarks.nofollowMeta)).toEqual([]);
    const guestbookLinks = demoPageLinks(web, page(web, landmarks.relNofollow));
    expect(guestbookLinks.filter((l) => l.nofollow).length).toBe(3);
    const followed = guestbookLinks.filter((l) => !l.nofollow && l.url !== landmarks.relNofollow).map((l) => nodeOf.get(l.url!));
    expect(out(landmarks.relNofollow)).toEqual([...new Set(followed)].sort((a, b) => a! - b!));
    const withNofollow = demoWebGraph(web, { includeNofollow: true });
    expect(withNofollow.graph.edgeCount).toBeGreaterThan(graph.edgeCount);
    for (const url of [landmarks.errors.notFound, landmarks.files.pdf, landmarks.calendarTrap]) expect(nodeOf.has(url)).toBe(false);
    // <base href> is honoured: the guide links to /help/intro.html, not /help/guide/intro.html.
    expect(out(landmarks.baseHref)).toContain(nodeOf.get(`http://${DEMO_LOCAL_HOST}/help/intro.html`));
  });

  it('gives the true global PageRank of any local set, summing to 1', () => {
    const local = demoWebHostUrls(web);
    expect(local.length).toBeGreaterThan(100);
    const truth = demoWebTruePageRank(web, local);
    expect(truth.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(Math.min(...truth)).toBeGreaterThan(0);
    // It is the whole web's PageRank restricted and renormalised.
    const { graph, nodeOf } = demoWebGraph(web);
    const global = pageRank(graph, { tolerance: 1e-12 }).rank;
    const restricted = local.map((u) => global[nodeOf.get(u)!]);
    const sum = restricted.reduce((a, b) => a + b, 0);
    restricted.forEach((x, k) => expect(truth[k]).toBeCloseTo(x / sum, 8));
    expect(demoWebGlobalPageRank(web).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const someSet = [local[3], local[1], web.landmarks.mirrorHost ? `http://${web.landmarks.mirrorHost}/` : local[0]];
    expect(demoWebTruePageRank(web, someSet).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(() => demoWebTruePageRank(web, [web.landmarks.errors.gone])).toThrow(RangeError);
  });
});

describe('startDemoWebServer', () => {
  const web = generateDemoWeb(SMALL);
  let now = web.epochMs + 200 * DAY_MS;
  let server: DemoWebServer;
  let dispatcher: Dispatcher;
  const latencyScale = 0.05;

  beforeAll(async () => {
    server = await startDemoWebServer(web, { clock: () => now, latencyScale });
    dispatcher = demoWebDispatcher(server.port);
  });
  afterAll(async () => {
    await dispatcher.close();
    await server.close();
  });

  async function get(url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') {
    const response = await request(url, { dispatcher, headers, method });
    const body = Buffer.from(await response.body.arrayBuffer());
    const header = (name: string) => {
      const value = response.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    return { status: response.statusCode, header, body, text: body.toString('utf8') };
  }

  it('answers for every host by the Host header, and 404 for unknown hosts', async () => {
    const direct = await request(`${server.url}/`, { headers: { host: DEMO_LOCAL_HOST } });
    expect(direct.statusCode).toBe(200);
    expect(await direct.body.text()).toContain('<title>Northfield University</title>');
    const unknown = await request(`${server.url}/`, { headers: { host: 'www.not-in-the-demo.com' } });
    expect(unknown.statusCode).toBe(404);
    await unknown.body.dump();
    expect((await get(`http://${DEMO_LOCAL_HOST}/no/such/page.html`)).status).toBe(404);
    expect((await get(`http://${web.landmarks.mirrorHost}/`)).status).toBe(200);
  });

  it('serves a sample of link targets with the status the web declares', async () => {
    const targets = new Set<string>();
    for (const p of pages(web)) for (const link of demoPageLinks(web, p)) if (link.url) targets.add(link.url);
    const sample = [...targets].filter((_, i) => i % 9 === 0).filter((u) => !(web.resources[web.urlIndex.get(u) ?? -1]?.delayMs > 0));
    expect(sample.length).toBeGreaterThan(100);
    for (const url of sample) expect((await get(url)).status, url).toBe(expectedStatus(web, url));
  });

  it('serves robots.txt per host: rules, crawl-delay, 500 and 404', async () => {
    const local = await get(`http://${DEMO_LOCAL_HOST}/robots.txt`);
    expect(local.header('content-type')).toMatch(/^text\/plain/);
    expect(local.text).toContain('Disallow: /private/');
    for (const url of web.landmarks.robotsDisallowedPages) expect((await get(url)).status).toBe(200);
    expect((await get(`http://${web.landmarks.crawlDelayHosts[0]}/robots.txt`)).text).toMatch(/Crawl-delay: \d/);
    expect((await get(`http://${web.landmarks.robotsServerErrorHost}/robots.txt`)).status).toBe(500);
    expect((await get(`http://${web.landmarks.robotsNotFoundHost}/robots.txt`)).status).toBe(404);
  });

  it('redirects: permanent, relative, chain, cross-host, loop, moved host', async () => {
    const { redirects } = web.landmarks;
    const permanent = await get(redirects.permanent);
    expect(permanent.status).toBe(301);
    expect(permanent.header('location')).toBe(`http://${DEMO_LOCAL_HOST}/about/`);
    const relative = await get(redirects.relativeLocation);
    expect(relative.status).toBe(302);
    expect(relative.header('location')).toBe('/admissions/');
    let url = redirects.chain[0];
    const hops: number[] = [];
    for (let hop = 0; hop < 5; hop++) {
      const response = await get(url);
      hops.push(response.status);
      if (response.status !== 301 && response.status !== 302) break;
      url = new URL(response.header('location')!, url).href;
    }
    expect(hops).toEqual([301, 302, 301, 200]);
    expect(new URL((await get(redirects.crossHost)).header('location')!).host).not.toBe(DEMO_LOCAL_HOST);
    expect((await get(redirects.toLibraryHost)).header('location')).toBe(`http://${web.landmarks.libraryHost}/`);
    expect((await get(redirects.loop[1])).header('location')).toBe(redirects.loop[0]);
    const moved = await get(redirects.movedHostHome);
    expect(moved.status).toBe(301);
    expect((await get(moved.header('location')!)).status).toBe(200);
  });

  it('serves 404, 410 and 500 pages that are linked from somewhere', async () => {
    const { errors } = web.landmarks;
    expect((await get(errors.notFound)).status).toBe(404);
    expect((await get(errors.gone)).status).toBe(410);
    expect((await get(errors.serverError)).status).toBe(500);
    const linked = new Set(pages(web).flatMap((p) => demoPageLinks(web, p).map((l) => l.url)));
    for (const url of Object.values(errors)) expect(linked.has(url)).toBe(true);
  });

  it('delays slow pages', async () => {
    const slowest = web.landmarks.slowPages.reduce((a, b) => (b.delayMs > a.delayMs ? b : a));
    expect(slowest.delayMs).toBeGreaterThanOrEqual(1000);
    const started = performance.now();
    expect((await get(slowest.url)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(slowest.delayMs * latencyScale * 0.9);
  });

  it('serves non-HTML files with their content types', async () => {
    const { files } = web.landmarks;
    const pdf = await get(files.pdf);
    expect(pdf.header('content-type')).toBe('application/pdf');
    expect(pdf.body.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect((await get(files.pdfWithoutExtension)).header('content-type')).toBe('application/pdf');
    const png = await get(files.image);
    expect(png.header('content-type')).toBe('image/png');
    expect([...png.body.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const text = await get(files.text);
    expect(text.header('content-type')).toMatch(/^text\/plain/);
    expect(text.text).toContain('timetable');
    const huge = await get(web.landmarks.hugePage);
    expect(huge.body.length).toBeGreaterThan(2_000_000);
  });

  it('serves legacy charsets declared in the header or only in <meta>', async () => {
    const header = await get(web.landmarks.charsetInHeader);
    expect(header.header('content-type')).toBe('text/html; charset=windows-1252');
    // Node's TextDecoder treats windows-1252 as ISO-8859-1, so check the bytes that differ.
    const decoded = header.body.toString('latin1');
    expect(decoded).toContain('crème brûlée');
    expect(decoded).toContain('©');
    expect(header.body.includes(Buffer.from([0x80, 0x35]))).toBe(true); // €5
    expect(header.body.includes(0x93)).toBe(true); // “
    expect(header.body.includes(Buffer.from('é', 'utf8'))).toBe(false);
    expect(header.body.includes(0xe9)).toBe(true);
    const meta = await get(web.landmarks.charsetInMeta);
    expect(meta.header('content-type')).toBe('text/html');
    expect(meta.body.toString('latin1')).toContain('<meta charset="iso-8859-1">');
    expect(new TextDecoder('iso-8859-1').decode(meta.body)).toContain('München: Über');
    expect(meta.body.includes(0xfc)).toBe(true); // ü
  });

  it('serves meta robots, rel=nofollow, canonical, <base href> and text that must be escaped', async () => {
    const { landmarks } = web;
    expect((await get(landmarks.noindex)).text).toContain('<meta name="robots" content="noindex">');
    expect((await get(landmarks.nofollowMeta)).text).toContain('<meta name="robots" content="nofollow">');
    expect((await get(landmarks.relNofollow)).text).toMatch(/<a href="http:\/\/[^"]+" rel="nofollow ugc">/);
    const [print] = landmarks.canonicals;
    expect((await get(print.url)).text).toContain(`<link rel="canonical" href="${print.canonical}">`);
    const guide = await get(landmarks.baseHref);
    expect(guide.text).toContain(`<base href="http://${DEMO_LOCAL_HOST}/help/">`);
    expect(guide.text).toContain('<a href="intro.html">');
    expect((await get(`http://${DEMO_LOCAL_HOST}/help/intro.html`)).status).toBe(200);
    expect((await get(`http://${DEMO_LOCAL_HOST}/help/guide/intro.html`)).status).toBe(404);
    const tips = await get(landmarks.scriptEscaping);
    expect(tips.text).toContain('<script>alert(1)</script>');
    expect(tips.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const $ = cheerio.load(tips.text);
    expect($('title').text()).toContain('<b>bold</b> & "quotes"');
    const zoo = await get(landmarks.linkZoo);
    expect(zoo.text).toContain('<!-- <a href="/hidden-in-comment.html">');
    expect(zoo.text).toContain('href="mailto:');
  });

  it('serves endless spider traps', async () => {
    let url = web.landmarks.calendarTrap;
    for (let month = 0; month < 30; month++) {
      const response = await get(url);
      expect(response.status).toBe(200);
      const next = cheerio.load(response.text)('a:contains("Next month")').attr('href')!;
      url = new URL(next, url).href;
    }
    expect(url).toBe(`http://${DEMO_LOCAL_HOST}/calendar/2029/05/`);
    url = web.landmarks.repeatingPathTrap;
    for (let depth = 0; depth < 10; depth++) {
      const response = await get(url);
      expect(response.status).toBe(200);
      url = new URL(cheerio.load(response.text)('a:contains("Older items")').attr('href')!, url).href;
    }
    expect(url).toBe(`http://${DEMO_LOCAL_HOST}/${'archive/'.repeat(11)}`);
  });

  it('serves duplicates: a mirror host, /index.html and near-duplicates', async () => {
    const mirrored = web.sites.find((s) => s.host === web.landmarks.mirroredHost)!;
    const paths = [web.resources[mirrored.home].path, web.resources[mirrored.home + mirrored.pageCount - 1].path];
    for (const path of paths) {
      const original = await get(`http://${web.landmarks.mirroredHost}${path}`);
      const copy = await get(`http://${web.landmarks.mirrorHost}${path}`);
      expect(copy.status).toBe(200);
      expect(copy.body.equals(original.body)).toBe(true);
    }
    const index = await get(web.landmarks.exactDuplicate.url);
    expect(index.body.equals((await get(web.landmarks.exactDuplicate.of)).body)).toBe(true);
    for (const pair of web.landmarks.nearDuplicates) {
      const a = (await get(pair.url)).text;
      const b = (await get(pair.of)).text;
      expect(a).not.toBe(b);
      const paragraphs = (html: string) => cheerio.load(html)('article > p').map((_, p) => cheerio.load(p).text()).get();
      const shared = paragraphs(b).filter((p) => paragraphs(a).includes(p));
      expect(shared.length).toBeGreaterThanOrEqual(paragraphs(b).length - 1);
    }
  });

  it('answers conditional GETs with 304', async () => {
    const url = `http://${DEMO_LOCAL_HOST}/`;
    const first = await get(url);
    const etag = first.header('etag')!;
    const lastModified = first.header('last-modified')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const byEtag = await get(url, { 'if-none-match': etag });
    expect(byEtag.status).toBe(304);
    expect(byEtag.body.length).toBe(0);
    expect((await get(url, { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await get(url, { 'if-none-match': '"something-else"' })).status).toBe(200);
    expect((await get(url, { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).status).toBe(200);
  });

  it('changes content as the clock advances, and conditional GETs notice', async () => {
    const url = web.landmarks.frequentlyChanging;
    const before = await get(url);
    const staticUrl = web.landmarks.charsetInMeta;
    const staticBefore = await get(staticUrl);
    now += 3 * DAY_MS;
    try {
      const after = await get(url);
      expect(after.header('etag')).not.toBe(before.header('etag'));
      expect(after.text).not.toBe(before.text);
      expect(Date.parse(after.header('last-modified')!)).toBeGreaterThan(Date.parse(before.header('last-modified')!));
      expect((await get(url, { 'if-none-match': before.header('etag')! })).status).toBe(200);
      expect((await get(url, { 'if-modified-since': before.header('last-modified')! })).status).toBe(200);
      // A page that never changes stays the same.
      const staticAfter = await get(staticUrl, { 'if-none-match': staticBefore.header('etag')! });
      expect(staticAfter.status).toBe(304);
      expect(Date.parse((await get(url)).header('date')!)).toBe(Math.floor(now / 1000) * 1000);
    } finally {
      now -= 3 * DAY_MS;
    }
  });

  it('gzips when asked and answers HEAD without a body', async () => {
    const url = `http://${DEMO_LOCAL_HOST}/`;
    const plain = await get(url);
    const zipped = await get(url, { 'accept-encoding': 'gzip, deflate' });
    expect(zipped.header('content-encoding')).toBe('gzip');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(plain.header('content-encoding')).toBeUndefined();
    const head = await get(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.header('content-length'))).toBe(plain.body.length);
  });

  it('records every request in the request log', async () => {
    const before = server.requestLog.length;
    const started = Date.now();
    await get(`http://${web.landmarks.libraryHost}/`, { 'user-agent': 'demo-test/1.0' });
    await get(`http://${web.landmarks.libraryHost}/robots.txt`);
    const entries = server.requestLog.slice(before);
    expect(entries.map((e) => [e.host, e.path, e.status])).toEqual([
      [web.landmarks.libraryHost, '/', 200],
      [web.landmarks.libraryHost, '/robots.txt', 200],
    ]);
    expect(entries[0].userAgent).toBe('demo-test/1.0');
    expect(entries[0].timeMs).toBeGreaterThanOrEqual(started);
    expect(entries[0].clockMs).toBe(now);
  });
});

// Keeps the helper types honest: every resource kind is reachable by URL.
function everyKindHasAUrl(web: DemoWeb): Set<DemoResource['kind']> {
  return new Set(web.resources.map((r) => findDemoResource(web, r.url)!.kind));
}

it('indexes every resource by its URL', () => {
  const web = generateDemoWeb(SMALL);
  expect([...everyKindHasAUrl(web)].sort()).toEqual(['error', 'file', 'page', 'redirect']);
});
