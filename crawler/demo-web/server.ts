/**
 * Serves a demo web on loopback: one node:http server answers for every host by the Host header
 * (virtual hosts). Pages are rendered lazily and cached per content version, so a request costs a
 * map lookup and a write. Time comes from `clock` (content versions, Date, Last-Modified), so tests
 * can move it forward to watch pages change; delays are real time scaled by `latencyScale`.
 *
 * A crawler reaches the hosts by connecting every origin to this server:
 * {@link demoWebDispatcher} is an undici dispatcher that does exactly that, so
 * `request('http://www.northfield-university.edu/', { dispatcher })` works unchanged, and
 * {@link demoWebResolvePins} gives the same routing as curl-style address pins.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Agent, buildConnector } from 'undici';
import { contentVersion, demoTrapPageAt, type DemoPage, type DemoResource, type DemoWeb } from './generate.ts';
import { encodePage, pageContentType, renderDemoPage, renderStatusPage, renderTrapPage } from './render.ts';

export interface DemoWebServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** The web's time in ms since the Unix epoch (default Date.now). */
  clock?: () => number;
  /** Multiplies every page delay (default 1; 0 turns delays off). */
  latencyScale?: number;
  /** Record every request in `requestLog` (default true). */
  logRequests?: boolean;
  /** Rendered bodies kept in memory (default 30 000, enough for the default web). */
  cacheEntries?: number;
}

export interface DemoRequestLogEntry {
  host: string;
  /** Path and query as requested. */
  path: string;
  method: string;
  status: number;
  /** Real arrival time (Date.now), for politeness checks. */
  timeMs: number;
  /** The web's clock at arrival. */
  clockMs: number;
  userAgent: string;
}

export interface DemoWebServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  requestLog: DemoRequestLogEntry[];
  close(): Promise<void>;
}

interface Body {
  bytes: Uint8Array;
  gzipped?: Uint8Array;
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  body?: Body;
  delayMs: number;
}

const utf8 = new TextEncoder();

/** An undici dispatcher that sends every origin's requests to the demo server at `port`. */
export function demoWebDispatcher(port: number, options: Omit<Agent.Options, 'connect'> = {}): Agent {
  const connect = buildConnector({});
  return new Agent({ ...options, connect: (connectOptions, callback) => connect({ ...connectOptions, hostname: '127.0.0.1', port: String(port) }, callback) });
}

/**
 * Address pins (curl `--resolve` style, as the crawler's fetcher takes them) that send every
 * demo URL (all are `http://host/…`, port 80) to the demo server at `port`.
 */
export function demoWebResolvePins(port: number): Record<string, string> {
  return { '*:80': `127.0.0.1:${port}` };
}

function acceptsGzip(header: string | undefined): boolean {
  return header !== undefined && /\bgzip\b(?!\s*;\s*q=0(?:\.0*)?\b)/i.test(header);
}

function etagMatches(header: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

export async function startDemoWebServer(web: DemoWeb, options: DemoWebServerOptions = {}): Promise<DemoWebServer> {
  const clock = options.clock ?? Date.now;
  const latencyScale = options.latencyScale ?? 1;
  const logRequests = options.logRequests ?? true;
  const cacheEntries = options.cacheEntries ?? 30_000;
  const requestLog: DemoRequestLogEntry[] = [];
  const cache = new Map<string, Body>();
  const statusBodies = new Map<string, Body>();

  const cached = (key: string, make: () => Uint8Array): Body => {
    let body = cache.get(key);
    if (!body) {
      body = { bytes: make() };
      cache.set(key, body);
      if (cache.size > cacheEntries) cache.delete(cache.keys().next().value as string);
    }
    return body;
  };
  const statusBody = (status: number, message: string): Body => {
    const key = `${status} ${message}`;
    let body = statusBodies.get(key);
    if (!body) statusBodies.set(key, (body = { bytes: utf8.encode(renderStatusPage(status, message)) }));
    return body;
  };
  const html = 'text/html; charset=utf-8';

  const pageReply = (page: DemoPage, request: IncomingMessage, now: number): Reply => {
    const version = contentVersion(page, now);
    const headers: Record<string, string> = {
      'content-type': pageContentType(page),
      etag: version.etag,
      'last-modified': new Date(version.lastModifiedMs).toUTCString(),
    };
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    const notModified =
      ifNoneMatch !== undefined ? etagMatches(ifNoneMatch, version.etag) : ifModifiedSince !== undefined && version.lastModifiedMs <= Date.parse(ifModifiedSince);
    if (notModified) return { status: 304, headers, delayMs: page.delayMs };
    const body = cached(`${page.id}:${version.version}`, () => encodePage(page, renderDemoPage(web, page, version)));
    return { status: 200, headers, body, delayMs: page.delayMs };
  };

  const resourceReply = (resource: DemoResource, request: IncomingMessage, now: number): Reply => {
    switch (resource.kind) {
      case 'page':
        return pageReply(resource, request, now);
      case 'redirect':
        return { status: resource.status, headers: { location: resource.location, 'content-type': html }, body: statusBody(resource.status, 'Moved'), delayMs: 0 };
      case 'error':
        return { status: resource.status, headers: { 'content-type': html }, body: statusBody(resource.status, resource.status === 410 ? 'Gone' : resource.status === 404 ? 'Not Found' : 'Server Error'), delayMs: 0 };
      case 'file':
        return {
          status: 200,
          headers: { 'content-type': resource.contentType, etag: `"f${resource.id.toString(36)}"`, 'last-modified': new Date(web.epochMs).toUTCString() },
          body: cached(`file:${resource.id}`, () => resource.bytes),
          delayMs: 0,
        };
    }
  };

  const reply = (request: IncomingMessage, hostName: string, path: string, now: number): Reply => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return { status: 405, headers: { allow: 'GET, HEAD', 'content-type': html }, body: statusBody(405, 'Method Not Allowed'), delayMs: 0 };
    const hostIndex = web.hostIndex.get(hostName);
    if (hostIndex === undefined) return { status: 404, headers: { 'content-type': html }, body: statusBody(404, 'Unknown Host'), delayMs: 0 };
    if (path === '/robots.txt') {
      const robots = web.hosts[hostIndex].robots;
      return { status: robots.status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: cached(`robots:${hostName}`, () => utf8.encode(robots.body)), delayMs: 0 };
    }
    const id = web.urlIndex.get(`http://${hostName}${path}`);
    if (id !== undefined) return resourceReply(web.resources[id], request, now);
    const trap = demoTrapPageAt(web, hostName, path);
    if (trap) return { status: 200, headers: { 'content-type': html }, body: cached(`trap:${hostName}${path}`, () => utf8.encode(renderTrapPage(trap))), delayMs: 0 };
    return { status: 404, headers: { 'content-type': html }, body: statusBody(404, 'Not Found'), delayMs: 0 };
  };

  const send = (request: IncomingMessage, response: ServerResponse, answer: Reply, now: number): void => {
    const headers: Record<string, string> = { ...answer.headers, date: new Date(now).toUTCString() };
    let bytes: Uint8Array | undefined;
    if (answer.body) {
      bytes = answer.body.bytes;
      const compressible = /^text\//.test(headers['content-type'] ?? '');
      if (compressible) headers.vary = 'Accept-Encoding';
      if (compressible && bytes.length > 256 && acceptsGzip(request.headers['accept-encoding'])) {
        answer.body.gzipped ??= gzipSync(bytes, { level: 1 });
        bytes = answer.body.gzipped;
        headers['content-encoding'] = 'gzip';
      }
      headers['content-length'] = String(bytes.length);
    }
    response.writeHead(answer.status, headers);
    response.end(request.method === 'HEAD' ? undefined : bytes);
  };

  const server = createServer((request, response) => {
    const timeMs = Date.now();
    const now = clock();
    const hostName = (request.headers.host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
    const path = request.url ?? '/';
    let answer: Reply;
    try {
      answer = reply(request, hostName, path, now);
    } catch (error) {
      answer = { status: 500, headers: { 'content-type': html }, body: { bytes: utf8.encode(renderStatusPage(500, String(error))) }, delayMs: 0 };
    }
    if (logRequests) requestLog.push({ host: hostName, path, method: request.method ?? '', status: answer.status, timeMs, clockMs: now, userAgent: request.headers['user-agent'] ?? '' });
    const delay = answer.delayMs * latencyScale;
    if (delay > 0) setTimeout(() => send(request, response, answer, now), delay);
    else send(request, response, answer, now);
  });
  server.headersTimeout = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requestLog,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
