// @ts-check
/**
 * Index changes held back because they would remove more than the allowed share of the indexed
 * pages (a site down for maintenance, a login wall): each with the reason the server gives and an
 * "Apply anyway" button. The panel stays hidden while nothing is held.
 */
import { byId, h } from '../lib/dom.js';
import { formatInteger } from '../lib/format.js';
import { api, report } from './api.js';

/** @typedef {{ job: string, reason: string, removing: number, indexed: number, maxShare: number }} HeldIndexChange */

/**
 * @param {HeldIndexChange[]} held  `heldIndexChanges` of GET /api/admin/status
 * @param {() => void} onApplied  called once a change is applied (the status is then out of date)
 */
export function renderHeldIndexChanges(held, onApplied) {
  const panel = byId('held-index');
  const items = held.map((change) =>
    h('li', { class: 'held-change' },
      h('p', {}, h('strong', { text: `Job ${change.job}` }), ` · ${formatInteger(change.removing)} of ${formatInteger(change.indexed)} pages to remove`),
      h('p', { class: 'small held-reason', text: change.reason }),
      h('button', {
        type: 'button',
        class: 'button button-small',
        'aria-label': `Apply anyway: the index change of job ${change.job}`,
        onclick: (/** @type {MouseEvent} */ event) => void applyAnyway(change.job, /** @type {HTMLButtonElement} */ (event.currentTarget), onApplied),
      }, 'Apply anyway')));
  byId('held-index-list').replaceChildren(...items);
  // A message about the last applied change stays until the next one is held.
  if (items.length > 0) byId('held-index-message').textContent = '';
  panel.hidden = items.length === 0 && byId('held-index-message').textContent === '';
}

/** @param {string} job @param {HTMLButtonElement} button @param {() => void} onApplied */
async function applyAnyway(job, button, onApplied) {
  const message = byId('held-index-message');
  button.disabled = true;
  try {
    await api(`/jobs/${encodeURIComponent(job)}/apply-index`, { method: 'POST' });
    button.closest('li')?.remove();
    message.textContent = `Applied the index change of job ${job}.`;
    onApplied();
  } catch (error) {
    report(message, error);
    button.disabled = false;
  }
}
