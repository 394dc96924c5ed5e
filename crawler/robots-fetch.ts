/**
 * Fetching robots.txt through the one fetcher, in the shape RobotsPolicy wants. Redirects are
 * followed (up to the fetcher's limit, RFC 9309 §2.3.1.2 asks for at least five) to any http(s)
 * URL; running out of redirects reports the last 3xx status, which the policy reads as
 * "unavailable". Network failures become status 0 ("unreachable").
 */
import { ROBOTS_MAX_BYTES } from './robots-rules.ts';
import type { Fetcher } from './fetcher.ts';
import type { RobotsFetch } from './robots.ts';

export function robotsFetchVia(fetcher: Fetcher, maxBytes = ROBOTS_MAX_BYTES): RobotsFetch {
  return async (origin) => {
    const result = await fetcher.fetch(`${origin}/robots.txt`, { accept: 'any', maxBodyBytes: maxBytes });
    if (result.ok) return { status: result.status, body: result.body ?? new Uint8Array(0) };
    if ((result.error === 'too-many-redirects' || result.error === 'redirect-loop') && result.status !== undefined) {
      return { status: result.status, body: new Uint8Array(0) };
    }
    return { status: 0, body: new Uint8Array(0), failure: { kind: result.error, message: result.message } };
  };
}
