/**
 * The fetcher against a real HTTP server on 127.0.0.1 (started here): redirects, compression,
 * size caps, timeouts, charsets, conditional GETs, Retry-After, the private-address guard and
 * `resolve` pins.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fetcher, FetcherOptionError, type FetcherOptions, type FetchFailure, type FetchResponse, type FetchResult } from '../crawler/fetcher.ts';
import { robotsFetchVia } from '../crawler/robots-fetch.ts';
import { RobotsPolicy } from '../crawler/robots.ts';
import { parseRetryAfter } from '../crawler/retry-after.ts';

const PAGE = '<!doctype html><html><head><title>Test page</title></head><body><p>Hello, crawler.</p></body></html>';
const BIG = `<!doctype html><html><body>${'<p>filler text for size limits</p>\n'.repeat(4000)}</body></html>`; // ~140 KB

let server: Server;
let base: string;
let port: number;
let connections = 0;
let inFlight = 0;
let maxInFlight = 0;
const requests: Array<{ path: string; headers: IncomingMessage['headers'] }> = [];
const sockets = new Set<Socket>();

function send(response: ServerResponse, status: number, headers: Record<string, string | number>, body?: string | Buffer) {
  response.writeHead(status, body === undefined ? headers : { 'content-length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

function route(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const path = url.pathname;
  requests.push({ path: `${path}${url.search}`, headers: request.headers });
  const html = { 'content-type': 'text/html; charset=utf-8' };
  const redirect = /^\/redirect\/(\d+)$/.exec(path);
  if (redirect) {
    const left = Number(redirect[1]);
    return send(response, left % 2 === 0 ? 301 : 302, { location: left > 1 ? `/redirect/${left - 1}` : '/html' });
  }
  switch (path) {
    case '/html':
      return send(response, 200, html, PAGE);
    case '/echo':
      return send(response, 200, html, `<p>${request.headers.host} ${request.headers['user-agent']}</p>`);
    case '/gzip':
      return send(response, 200, { ...html, 'content-encoding': 'gzip' }, zlib.gzipSync(PAGE));
    case '/br':
      return send(response, 200, { ...html, 'content-encoding': 'br' }, zlib.brotliCompressSync(PAGE));
    case '/deflate':
      return send(response, 200, { ...html, 'content-encoding': 'deflate' }, zlib.deflateSync(PAGE));
    case '/deflate-raw':
      return send(response, 200, { ...html, 'content-encoding': 'deflate' }, zlib.deflateRawSync(PAGE));
    case '/gzip-corrupt':
      return send(response, 200, { ...html, 'content-encoding': 'gzip' }, Buffer.from('this is not gzip at all'));
    case '/zstd':
      return send(response, 200, { ...html, 'content-encoding': 'compress-of-the-future' }, 'xx');
    case '/big':
      return send(response, 200, html, BIG);
    case '/bomb':
      // 20 MB of zeros, a few KB on the wire.
      return send(response, 200, { ...html, 'content-encoding': 'gzip' }, zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024)));
    case '/latin1':
      return send(response, 200, { 'content-type': 'text/html; charset=windows-1252' }, Buffer.from([0x3c, 0x70, 0x3e, 0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]));
    case '/sjis':
      return send(response, 200, { 'content-type': 'text/html' }, Buffer.concat([Buffer.from('<meta charset="shift_jis"><p>'), Buffer.from([0x93, 0xfa, 0x96, 0x7b])]));
    case '/etag':
      if (request.headers['if-none-match'] === '"v1"') return send(response, 304, { etag: '"v1"' });
      return send(response, 200, { ...html, etag: '"v1"' }, PAGE);
    case '/last-modified':
      if (request.headers['if-modified-since'] === 'Wed, 21 Oct 2015 07:28:00 GMT') return send(response, 304, {});
      return send(response, 200, { ...html, 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' }, PAGE);
    case '/redirect-to-etag':
      return send(response, 302, { location: '/etag' });
    case '/429':
      return send(response, 429, { 'retry-after': '120', 'content-type': 'text/plain' }, 'slow down');
    case '/503':
      return send(response, 503, { 'retry-after': 'Wed, 01 Jan 2031 00:01:00 GMT' }, 'maintenance');
    case '/404':
      return send(response, 404, html, '<p>not found</p>');
    case '/pdf':
      return send(response, 200, { 'content-type': 'application/pdf' }, '%PDF-1.4 fake');
    case '/untyped-html':
      return send(response, 200, {}, PAGE);
    case '/untyped-binary':
      return send(response, 200, {}, Buffer.from([0, 1, 2, 3]));
    case '/loop':
      return send(response, 301, { location: '/loop-b' });
    case '/loop-b':
      return send(response, 301, { location: '/loop' });
    case '/to-mailto':
      return send(response, 302, { location: 'mailto:someone@example.org' });
    case '/relative':
      return send(response, 302, { location: 'sub/../html#fragment' });
    case '/to-pin':
      return send(response, 302, { location: 'http://other.example/html' });
    case '/robots.txt':
      return send(response, 200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow: /private\n');
    case '/reset':
      request.socket.destroy();
      return;
    case '/reset-mid-body':
      response.writeHead(200, { ...html, 'content-length': 100_000 });
      response.write('<p>partial');
      setTimeout(() => request.socket.destroy(), 20).unref();
      return;
    case '/slow-headers':
      setTimeout(() => send(response, 200, html, PAGE), 3000).unref();
      return;
    case '/slow-body':
      response.writeHead(200, html);
      response.write('<p>start');
      return; // never finishes
    case '/trickle': {
      response.writeHead(200, html);
      const timer = setInterval(() => response.write('<p>more</p>'), 50);
      response.on('close', () => clearInterval(timer));
      return;
    }
    case '/busy':
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        send(response, 200, html, PAGE);
      }, 150);
      return;
    default:
      return send(response, 404, html, 'no route');
  }
}

beforeAll(async () => {
  server = createServer(route);
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const fetchers: Fetcher[] = [];
function fetcher(options: Partial<FetcherOptions> = {}): Fetcher {
  const instance = new Fetcher({ userAgent: 'lse-bot/0.1 (+test)', allowPrivateNetworks: true, ...options });
  fetchers.push(instance);
  return instance;
}
afterAll(async () => {
  await Promise.all(fetchers.map((f) => f.destroy()));
});

function response(result: FetchResult): FetchResponse {
  if (!result.ok) throw new Error(`expected a response, got ${result.error}: ${result.message}`);
  return result;
}

function failure(result: FetchResult): FetchFailure {
  if (result.ok) throw new Error(`expected a failure, got status ${result.status}`);
  return result;
}

describe('Fetcher: plain pages', () => {
  it('fetches an HTML page with its text, headers and timings', async () => {
    const result = response(await fetcher().fetch(`${base}/html`));
    expect(result.status).toBe(200);
    expect(result.isHtml).toBe(true);
    expect(result.mediaType).toBe('text/html');
    expect(result.text).toBe(PAGE);
    expect(result.body?.toString()).toBe(PAGE);
    expect(result.charset).toEqual({ charset: 'utf-8', source: 'header', fallback: false });
    expect(result.headers.contentLength).toBe(Buffer.byteLength(PAGE));
    expect(result.finalUrl).toBe(`${base}/html`);
    expect(result.redirects).toEqual([]);
    expect(result.truncated).toBe(false);
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(result.timings.headersMs);
  });

  it('sends our user-agent, Accept and Accept-Encoding', async () => {
    const result = response(await fetcher().fetch(`${base}/echo`));
    expect(result.text).toContain('lse-bot/0.1 (+test)');
    const seen = requests.filter((r) => r.path === '/echo').at(-1);
    expect(seen?.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(seen?.headers.accept).toContain('text/html');
  });

  it('reuses one keep-alive connection for sequential requests', async () => {
    const f = fetcher({ connectionsPerOrigin: 1 });
    await f.fetch(`${base}/html`);
    const before = connections;
    for (let i = 0; i < 5; i++) response(await f.fetch(`${base}/html`));
    expect(connections).toBe(before);
  });

  it('records non-HTML types without keeping their bodies, unless asked for any type', async () => {
    const pdf = response(await fetcher().fetch(`${base}/pdf`));
    expect(pdf).toMatchObject({ status: 200, mediaType: 'application/pdf', isHtml: false, body: null, text: null });
    const kept = response(await fetcher().fetch(`${base}/pdf`, { accept: 'any' }));
    expect(kept.body?.toString()).toBe('%PDF-1.4 fake');
    expect(kept.text).toBeNull();
  });

  it('sniffs a body without Content-Type', async () => {
    expect(response(await fetcher().fetch(`${base}/untyped-html`))).toMatchObject({ isHtml: true, mediaType: '', text: PAGE });
    expect(response(await fetcher().fetch(`${base}/untyped-binary`))).toMatchObject({ isHtml: false, body: null });
  });

  it('does not keep the body of error statuses', async () => {
    expect(response(await fetcher().fetch(`${base}/404`))).toMatchObject({ status: 404, isHtml: true, body: null, text: null });
  });

  it('refuses bad URLs and other schemes without a request', async () => {
    expect(failure(await fetcher().fetch('nope')).error).toBe('invalid-url');
    expect(failure(await fetcher().fetch('ftp://127.0.0.1/file')).error).toBe('scheme');
  });

  it('reports connections reset before and during the response', async () => {
    expect(failure(await fetcher().fetch(`${base}/reset`)).error).toBe('reset');
    expect(failure(await fetcher().fetch(`${base}/reset-mid-body`))).toMatchObject({ error: 'reset', status: 200 });
  });

  it('reports refused connections and DNS failures', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(failure(await fetcher().fetch(`http://127.0.0.1:${closedPort}/`)).error).toBe('refused');
    const noDns = fetcher({ lookup: async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })) });
    expect(failure(await noDns.fetch('http://does-not-exist.test/')).error).toBe('dns');
    const empty = fetcher({ lookup: async () => [] });
    expect(failure(await empty.fetch('http://empty.test/')).error).toBe('dns');
  });
});

describe('Fetcher: compression', () => {
  it.each(['/gzip', '/br', '/deflate', '/deflate-raw'])('decodes %s', async (path) => {
    const result = response(await fetcher().fetch(`${base}${path}`));
    expect(result.text).toBe(PAGE);
    expect(result.truncated).toBe(false);
  });

  it('reports corrupt and unknown encodings', async () => {
    expect(failure(await fetcher().fetch(`${base}/gzip-corrupt`)).error).toBe('decode');
    expect(failure(await fetcher().fetch(`${base}/zstd`)).error).toBe('decode');
  });
});

describe('Fetcher: size cap', () => {
  it('truncates at the cap and flags it', async () => {
    const result = response(await fetcher({ maxBodyBytes: 10_000 }).fetch(`${base}/big`));
    expect(result.truncated).toBe(true);
    expect(result.body?.length).toBe(10_000);
    expect(result.text).toBe(BIG.slice(0, 10_000));
    const whole = response(await fetcher().fetch(`${base}/big`));
    expect(whole.truncated).toBe(false);
    expect(whole.body?.length).toBe(Buffer.byteLength(BIG));
  });

  it('caps the decompressed size (a gzip bomb stops at the cap)', async () => {
    const result = response(await fetcher({ maxBodyBytes: 100_000 }).fetch(`${base}/bomb`));
    expect(result.truncated).toBe(true);
    expect(result.body?.length).toBe(100_000);
  });

  it('fails with too-large when asked to', async () => {
    const result = failure(await fetcher().fetch(`${base}/big`, { maxBodyBytes: 1000, failWhenTooLarge: true }));
    expect(result).toMatchObject({ error: 'too-large', status: 200 });
  });
});

describe('Fetcher: timeouts', () => {
  it('times out waiting for headers', async () => {
    const result = failure(await fetcher({ headersTimeoutMs: 200 }).fetch(`${base}/slow-headers`));
    expect(result).toMatchObject({ error: 'timeout', timeoutPhase: 'headers' });
  });

  it('times out when the body stalls', async () => {
    const result = failure(await fetcher({ bodyTimeoutMs: 200 }).fetch(`${base}/slow-body`));
    expect(result).toMatchObject({ error: 'timeout', timeoutPhase: 'body' });
  });

  it('times out a body that trickles forever', async () => {
    const result = failure(await fetcher({ totalTimeoutMs: 400 }).fetch(`${base}/trickle`));
    expect(result).toMatchObject({ error: 'timeout', timeoutPhase: 'total' });
    expect(result.timings.totalMs).toBeLessThan(2000);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(failure(await fetcher().fetch(`${base}/slow-headers`, { signal: controller.signal })).error).toBe('aborted');
  });
});

describe('Fetcher: redirects', () => {
  it('follows up to five redirects and records each hop', async () => {
    const result = response(await fetcher().fetch(`${base}/redirect/5`));
    expect(result.finalUrl).toBe(`${base}/html`);
    expect(result.text).toBe(PAGE);
    expect(result.redirects.map((hop) => [hop.from.replace(base, ''), hop.to.replace(base, ''), hop.status])).toEqual([
      ['/redirect/5', '/redirect/4', 302],
      ['/redirect/4', '/redirect/3', 301],
      ['/redirect/3', '/redirect/2', 302],
      ['/redirect/2', '/redirect/1', 301],
      ['/redirect/1', '/html', 302],
    ]);
  });

  it('stops after the limit', async () => {
    expect(failure(await fetcher().fetch(`${base}/redirect/6`))).toMatchObject({ error: 'too-many-redirects', status: 302 });
    expect(failure(await fetcher({ maxRedirects: 0 }).fetch(`${base}/redirect/1`)).error).toBe('too-many-redirects');
  });

  it('detects loops, bad targets, and resolves relative locations', async () => {
    expect(failure(await fetcher().fetch(`${base}/loop`)).error).toBe('redirect-loop');
    expect(failure(await fetcher().fetch(`${base}/to-mailto`)).error).toBe('bad-redirect');
    expect(response(await fetcher().fetch(`${base}/relative`)).finalUrl).toBe(`${base}/html`);
  });

  it('asks the callback at every hop, which can refuse or rewrite', async () => {
    const seen: string[] = [];
    const refused = failure(
      await fetcher().fetch(`${base}/redirect/3`, {
        onRedirect: (hop) => {
          seen.push(hop.to.replace(base, ''));
          return hop.to.endsWith('/1') ? { follow: false, reason: 'robots.txt disallows it' } : { follow: true };
        },
      }),
    );
    expect(seen).toEqual(['/redirect/2', '/redirect/1']);
    expect(refused).toMatchObject({ error: 'redirect-refused', status: 301, finalUrl: `${base}/redirect/2` });
    expect(refused.message).toContain('robots.txt disallows it');
    expect(refused.redirects).toHaveLength(1);

    const rewritten = response(await fetcher().fetch(`${base}/redirect/1`, { onRedirect: async () => ({ follow: true, url: `${base}/echo` }) }));
    expect(rewritten.finalUrl).toBe(`${base}/echo`);
    expect(rewritten.redirects[0].to).toBe(`${base}/echo`);
  });
});

describe('Fetcher: charsets', () => {
  it('decodes with the header charset', async () => {
    const result = response(await fetcher().fetch(`${base}/latin1`));
    expect(result.text).toBe('<p>café €');
    expect(result.charset).toEqual({ charset: 'windows-1252', source: 'header', fallback: false });
  });

  it('decodes with a <meta charset>', async () => {
    const result = response(await fetcher().fetch(`${base}/sjis`));
    expect(result.text?.endsWith('日本')).toBe(true);
    expect(result.charset?.source).toBe('meta');
  });
});

describe('Fetcher: conditional GET and Retry-After', () => {
  it('returns notModified for a matching ETag', async () => {
    const f = fetcher();
    const first = response(await f.fetch(`${base}/etag`));
    expect(first.headers.etag).toBe('"v1"');
    const again = response(await f.fetch(`${base}/etag`, { etag: first.headers.etag }));
    expect(again).toMatchObject({ status: 304, notModified: true, body: null });
  });

  it('returns notModified for Last-Modified', async () => {
    const f = fetcher();
    const first = response(await f.fetch(`${base}/last-modified`));
    const again = response(await f.fetch(`${base}/last-modified`, { lastModified: first.headers.lastModified }));
    expect(again.notModified).toBe(true);
  });

  it('does not carry validators across a redirect', async () => {
    const result = response(await fetcher().fetch(`${base}/redirect-to-etag`, { etag: '"v1"' }));
    expect(result).toMatchObject({ status: 200, notModified: false });
  });

  it('parses Retry-After in seconds and as a date', async () => {
    const tooMany = response(await fetcher().fetch(`${base}/429`));
    expect(tooMany).toMatchObject({ status: 429, retryAfterMs: 120_000, body: null });
    const now = Date.parse('Wed, 01 Jan 2031 00:00:00 GMT');
    const unavailable = response(await fetcher({ now: () => now }).fetch(`${base}/503`));
    expect(unavailable).toMatchObject({ status: 503, retryAfterMs: 60_000 });
    expect(response(await fetcher().fetch(`${base}/html`)).retryAfterMs).toBeNull();
  });

  it('parseRetryAfter handles the forms and junk', () => {
    expect(parseRetryAfter('0', 0)).toBe(0);
    expect(parseRetryAfter(' 30 ', 0)).toBe(30_000);
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', Date.parse('Sun, 06 Nov 1994 08:49:07 GMT'))).toBe(30_000);
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', Date.parse('Mon, 07 Nov 1994 08:49:37 GMT'))).toBe(0);
    expect(parseRetryAfter('-5', 0)).toBeNull();
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter(undefined, 0)).toBeNull();
  });
});

describe('Fetcher: private addresses and resolve pins', () => {
  it('refuses loopback without allowPrivateNetworks, whatever the spelling', async () => {
    const guarded = fetcher({ allowPrivateNetworks: false });
    for (const url of [`${base}/html`, `http://localhost:${port}/html`, `http://[::ffff:127.0.0.1]:${port}/html`, `http://0x7f.0.0.1:${port}/html`, `http://[::1]:${port}/html`]) {
      const result = failure(await guarded.fetch(url));
      expect(result.error, url).toBe('private-address');
    }
    expect(requests.length).toBeGreaterThan(0);
  });

  it('checks the resolved address, so a public-looking name that resolves to loopback is refused', async () => {
    const rebinding = fetcher({ allowPrivateNetworks: false, lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    const result = failure(await rebinding.fetch(`http://innocent.example:${port}/html`));
    expect(result.error).toBe('private-address');
    expect(result.message).toContain('127.0.0.1');
  });

  it('connects when private networks are allowed', async () => {
    expect(response(await fetcher({ allowPrivateNetworks: true }).fetch(`${base}/html`)).status).toBe(200);
  });

  it('maps a whole staged web to the test server with *.suffix pins, keeping Host and URL', async () => {
    const staged = fetcher({ resolve: { '*.example:80': `127.0.0.1:${port}` } });
    const result = response(await staged.fetch('http://www.example/echo'));
    expect(result.finalUrl).toBe('http://www.example/echo');
    expect(result.text).toContain('www.example lse-bot');
    const other = response(await staged.fetch('http://deep.sub.example/echo'));
    expect(other.text).toContain('deep.sub.example');
    // Redirects to other pinned hosts work too.
    const hopped = response(await staged.fetch('http://a.example/to-pin'));
    expect(hopped.finalUrl).toBe('http://other.example/html');
  });

  it('still refuses a pin to loopback without allowPrivateNetworks', async () => {
    const staged = fetcher({ allowPrivateNetworks: false, resolve: { '*.example:80': `127.0.0.1:${port}` } });
    expect(failure(await staged.fetch('http://www.example/html')).error).toBe('private-address');
  });

  it('rejects malformed pins and options at construction', () => {
    expect(() => fetcher({ resolve: { 'www.example': '127.0.0.1:80' } })).toThrow(FetcherOptionError);
    expect(() => fetcher({ resolve: { 'www.example:80': 'not-an-ip:80' } })).toThrow(/not an IP address/);
    expect(() => fetcher({ maxConcurrency: 0 })).toThrow(FetcherOptionError);
    expect(() => fetcher({ userAgent: '' })).toThrow(FetcherOptionError);
  });
});

describe('Fetcher: concurrency', () => {
  it('keeps at most maxConcurrency requests in flight', async () => {
    maxInFlight = 0;
    const f = fetcher({ maxConcurrency: 2, connectionsPerOrigin: 8 });
    const results = await Promise.all(Array.from({ length: 6 }, () => f.fetch(`${base}/busy`)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(maxInFlight).toBe(2);
    expect(results.some((r) => r.timings.queuedMs > 100)).toBe(true);
    expect(f.load).toEqual({ active: 0, waiting: 0 });
  });
});

describe('robots.txt through the fetcher', () => {
  it('feeds RobotsPolicy', async () => {
    const f = fetcher({ resolve: { '*.example:80': `127.0.0.1:${port}` } });
    const policy = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots: robotsFetchVia(f) });
    expect((await policy.check('http://site.example/private/x')).allowed).toBe(false);
    expect((await policy.check('http://site.example/public')).allowed).toBe(true);
    // An unreachable host (refused) disallows everything for now.
    const guarded = new RobotsPolicy({ userAgent: 'lse-bot', fetchRobots: robotsFetchVia(fetcher({ allowPrivateNetworks: false })) });
    expect(await guarded.check(`${base}/public`)).toMatchObject({ allowed: false, reason: 'unreachable' });
  });
});
