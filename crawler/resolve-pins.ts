/**
 * Address pins, like curl's `--resolve host:port:addr`: `{ "host:port": "addr:port" }` sends
 * connections for `host:port` to `addr:port` while the URL, the Host header and TLS SNI keep the
 * original name. The host may be `*` (every host) or `*.suffix` (every host below suffix), the
 * port `*` (every port), so a whole staged multi-host web can live on one loopback server.
 * Precedence: exact host, then the longest `*.suffix`, then `*`; an exact port before `*`.
 */
import { isIP } from 'node:net';

export class ResolvePinError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResolvePinError';
  }
}

export interface PinTarget {
  readonly address: string;
  readonly port: number;
}

interface Pin {
  /** Lower-cased host, `*`, or a suffix starting with `.` for `*.suffix`. */
  readonly host: string;
  readonly port: number | '*';
  readonly target: PinTarget;
}

export class ResolvePins {
  readonly #pins: readonly Pin[];

  constructor(map: Readonly<Record<string, string>> = {}) {
    this.#pins = Object.entries(map).map(([key, value]) => parsePin(key, value));
  }

  get size(): number {
    return this.#pins.length;
  }

  /** Where to connect for `host:port`, or undefined when no pin applies. */
  match(host: string, port: number): PinTarget | undefined {
    const name = host.toLowerCase().replace(/^\[|\]$/g, '');
    let best: Pin | undefined;
    let bestScore = -1;
    for (const pin of this.#pins) {
      if (pin.port !== '*' && pin.port !== port) continue;
      let score: number;
      if (pin.host === name) score = 1_000_000;
      else if (pin.host === '*') score = 0;
      else if (pin.host.startsWith('.') && name.endsWith(pin.host)) score = pin.host.length * 2;
      else continue;
      if (pin.port !== '*') score += 1;
      if (score > bestScore) {
        best = pin;
        bestScore = score;
      }
    }
    return best?.target;
  }
}

function parsePin(key: string, value: string): Pin {
  const [rawHost, rawPort] = splitHostPort(key, `resolve key "${key}"`);
  const host = rawHost.toLowerCase();
  let pattern: string;
  if (host === '*') pattern = '*';
  else if (host.startsWith('*.') && host.length > 2) pattern = host.slice(1);
  else if (/^[^\s*/?#@]+$/.test(host)) pattern = host;
  else throw new ResolvePinError(`resolve key "${key}": the host must be a name, "*" or "*.suffix"`);
  const port = rawPort === '*' ? '*' : parsePort(rawPort, `resolve key "${key}"`);

  const [address, rawTargetPort] = splitHostPort(value, `resolve target "${value}" (for "${key}")`);
  if (isIP(address) === 0) throw new ResolvePinError(`resolve target "${value}" (for "${key}"): "${address}" is not an IP address`);
  return { host: pattern, port, target: { address, port: parsePort(rawTargetPort, `resolve target "${value}"`) } };
}

/** Splits `host:port` / `[v6]:port` at the last colon. */
function splitHostPort(text: string, what: string): [string, string] {
  const trimmed = text.trim();
  const colon = trimmed.lastIndexOf(':');
  if (colon <= 0 || colon === trimmed.length - 1) throw new ResolvePinError(`${what}: expected HOST:PORT`);
  let host = trimmed.slice(0, colon);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  else if (host.includes(':')) throw new ResolvePinError(`${what}: write IPv6 addresses in brackets, [::1]:PORT`);
  return [host, trimmed.slice(colon + 1)];
}

function parsePort(text: string, what: string): number {
  const port = Number(text);
  if (!/^[0-9]+$/.test(text) || port < 1 || port > 65535) throw new ResolvePinError(`${what}: "${text}" is not a port (1–65535)`);
  return port;
}
