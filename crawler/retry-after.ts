/**
 * `Retry-After` (RFC 9110 §10.2.3): either a number of seconds or an HTTP date. Returns the wait
 * in milliseconds from `now` (never negative), or null when the value is absent or malformed.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value == null) return null;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  // Only accept something that looks like an HTTP date, not any string Date.parse tolerates.
  if (!/^[A-Za-z]{3},? /.test(text) && !/GMT$/i.test(text)) return null;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
