/**
 * One HTTP server on 127.0.0.1 that answers for many hosts (the crawl's resolve pins send every
 * `*:80` there): the handler sees the Host header's name and the path, and every request is
 * logged as `host/path` so a test can tell which hosts and paths the crawl asked for.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface VirtualHosts {
  port: number;
  /** `host/path` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startVirtualHosts(handle: (host: string, path: string, response: ServerResponse) => void): Promise<VirtualHosts> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const host = String(request.headers.host).split(':')[0];
    const path = request.url ?? '/';
    requests.push(`${host}${path}`);
    handle(host, path, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
