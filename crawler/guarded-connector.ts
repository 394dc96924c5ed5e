/**
 * The socket connector of the fetcher's undici Agent. Every connection goes through here, so this
 * is where (1) `resolve` pins redirect a host to a fixed address and (2) private, loopback and
 * link-local addresses are refused. The check runs on the address we actually dial: the name is
 * resolved here and the socket is opened to that very address, so a DNS answer that changes
 * between a check and the connect (DNS rebinding) cannot slip through. The URL, the Host header
 * and TLS SNI keep the original host name.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { isPrivateAddress } from './ip-address.ts';
import type { ResolvePins } from './resolve-pins.ts';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Host name → addresses (all of them). Injectable for tests; the default is the OS resolver. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export class PrivateAddressError extends Error {
  readonly code = 'ELSE_PRIVATE_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`refusing to connect to ${host} at private address ${address} (set allowPrivateNetworks to allow it)`);
    this.name = 'PrivateAddressError';
  }
}

export class DnsTimeoutError extends Error {
  readonly code = 'ELSE_DNS_TIMEOUT';
  constructor(readonly host: string) {
    super(`looking up ${host} timed out`);
    this.name = 'DnsTimeoutError';
  }
}

export interface GuardedConnectorOptions {
  readonly allowPrivateNetworks: boolean;
  readonly pins: ResolvePins;
  readonly lookup: HostLookup;
  /** Limit for the name lookup and, separately, for the TCP (and TLS) handshake. */
  readonly connectTimeoutMs: number;
  /** Certificate authorities to trust instead of Node's (PEM). */
  readonly ca?: string | readonly string[];
}

export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const connectSocket = buildConnector({ timeout: options.connectTimeoutMs, ...(options.ca ? { ca: options.ca as string | string[] } : {}) });
  return (connectOptions, callback) => {
    const host = connectOptions.hostname.replace(/^\[|\]$/g, '');
    const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
    const pin = options.pins.match(host, port);
    const target = pin?.address ?? host;
    addressesOf(target, options)
      .then((addresses) => {
        const usable = options.allowPrivateNetworks ? addresses : addresses.filter((entry) => !isPrivateAddress(entry.address));
        if (usable.length === 0) {
          const error = addresses.length > 0 ? new PrivateAddressError(host, addresses[0].address) : notFound(host);
          callback(error, null);
          return;
        }
        connectSocket(
          {
            ...connectOptions,
            hostname: usable[0].address,
            port: String(pin?.port ?? port),
            servername: connectOptions.servername || (isIP(host) === 0 ? host : undefined),
          },
          callback,
        );
      })
      .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null));
  };
}

async function addressesOf(target: string, options: GuardedConnectorOptions): Promise<readonly ResolvedAddress[]> {
  const family = isIP(target);
  if (family !== 0) return [{ address: target, family }];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DnsTimeoutError(target)), options.connectTimeoutMs);
  });
  try {
    return await Promise.race([options.lookup(target), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function notFound(host: string): Error {
  return Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' });
}
