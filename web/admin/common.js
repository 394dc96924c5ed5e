// @ts-check
/** Small pieces several admin panels share: job states, their badge, whole-number fields. */
import { h } from '../lib/dom.js';
import { formatInteger } from '../lib/format.js';

/** @param {string | undefined} state */
export const isOver = (state) => state === 'done' || state === 'failed' || state === 'cancelled';

/** @param {string} state */
export const stateBadge = (state) => h('span', { class: `badge badge-${state}`, text: state });

/**
 * A whole number within [min, max] from an input, or an error naming the field.
 * @param {HTMLElement} element  an <input>
 * @param {string} name
 */
export function readInteger(element, name) {
  const input = /** @type {HTMLInputElement} */ (element);
  const value = Number(input.value);
  const min = Number(input.min || 1);
  const max = Number(input.max || Number.MAX_SAFE_INTEGER);
  if (input.value.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    throw new Error(`${name}: a whole number from ${formatInteger(min)} to ${formatInteger(max)}.`);
  }
  input.setAttribute('aria-invalid', 'false');
  return value;
}

/** The message of a thrown value. @param {unknown} error */
export const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * What to refresh when a job ends (a new index generation, new ranks): set by the entry module,
 * so the panels do not import each other in a circle.
 */
let refreshAfterJob = async () => {};

/** @param {() => Promise<void>} refresh */
export function onJobEnded(refresh) {
  refreshAfterJob = refresh;
}

export const jobEnded = () => refreshAfterJob();
