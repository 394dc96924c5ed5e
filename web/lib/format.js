// @ts-check
/** Number, time and date formats both pages use (English, as the pages are written). */

/** @type {Record<string, string>} */
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
const integerFormat = new Intl.NumberFormat('en');
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** @param {number} n */
export const superscript = (n) => String(n).replace(/[-0-9]/g, (c) => SUPERSCRIPT[c]);

/** @param {unknown} value */
export function formatInteger(value) {
  return typeof value === 'number' && Number.isFinite(value) ? integerFormat.format(value) : '–';
}

/**
 * Three significant digits; very small or large values as m × 10ⁿ (readable, no "e-7").
 * @param {unknown} value
 */
export function formatNumber(value) {
  if (typeof value !== 'number' || Number.isNaN(value)) return '–';
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e5) return String(Number(value.toPrecision(3)));
  const exponent = Math.floor(Math.log10(magnitude));
  const mantissa = Number((value / 10 ** exponent).toPrecision(3));
  return `${mantissa} × 10${superscript(exponent)}`;
}

/**
 * A power of ten as an axis label: 0.01 … 1000 plainly, otherwise 10ⁿ.
 * @param {number} exponent
 * @param {number} [multiple]
 */
export function formatPowerOfTen(exponent, multiple = 1) {
  if (exponent >= -3 && exponent <= 3) return String(Number((multiple * 10 ** exponent).toPrecision(3)));
  return multiple === 1 ? `10${superscript(exponent)}` : `${multiple}·10${superscript(exponent)}`;
}

/**
 * A ratio near 1 needs decimals (×1.012), a large one does not (×250).
 * @param {unknown} value
 */
export function formatRatio(value) {
  if (typeof value !== 'number' || Number.isNaN(value)) return '–';
  if (!Number.isFinite(value)) return '∞';
  return value >= 0.01 && value < 10 ? value.toFixed(3) : formatNumber(value);
}

/** @param {unknown} ms */
export function formatDuration(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** @param {string | number | Date | null | undefined} value */
export function formatDateTime(value) {
  if (value === undefined || value === null) return '–';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '–' : dateTimeFormat.format(date);
}

/** @param {string | number | Date | null | undefined} value */
export function formatDate(value) {
  if (value === undefined || value === null) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** @type {Array<[Intl.RelativeTimeFormatUnit, number]>} */
const RELATIVE_UNITS = [['day', 86_400], ['hour', 3600], ['minute', 60], ['second', 1]];

/** "in 3 hours", "2 days ago". @param {string | number | Date} value */
export function formatRelative(value) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const seconds = (date.getTime() - Date.now()) / 1000;
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return '';
}
