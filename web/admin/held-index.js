// @ts-check
/**
 * Index changes held back because they would remove more than the allowed share of the indexed
 * pages (a site down for maintenance, a login wall): each with the reason the server gives, a
 * sample of the URLs it would remove (all of them one click away), "Apply…" behind a
 * confirmation, and "Discard" (the index keeps what it has). Hidden while nothing is held.
 */
import { byId, h } from '../lib/dom.js';
import { formatInteger } from '../lib/format.js';
import { api, report } from './api.js';

/** @typedef {{ job: string, reason: string, removing: number, indexed: number, maxShare: number, sample?: string[] }} HeldIndexChange */

/**
 * @param {HeldIndexChange[]} held  `heldIndexChanges` of GET /api/admin/status
 * @param {() => void} onDecided  called once a change is applied or discarded (the status is then out of date)
 */
export function renderHeldIndexChanges(held, onDecided) {
  const panel = byId('held-index');
  const items = held.map((change) => heldItem(change, onDecided));
  byId('held-index-list').replaceChildren(...items);
  // A message about the last decided change stays until the next one is held.
  if (items.length > 0) byId('held-index-message').textContent = '';
  panel.hidden = items.length === 0 && byId('held-index-message').textContent === '';
}

/** @param {HeldIndexChange} change @param {() => void} onDecided */
function heldItem(change, onDecided) {
  const sample = change.sample ?? [];
  const urls = h('ul', { class: 'held-urls small', 'aria-label': `Pages job ${change.job} would remove` }, ...sample.map(urlItem));
  const more = change.removing - sample.length;
  const showAll = more > 0
    ? h('button', { type: 'button', class: 'link-button small', onclick: (/** @type {MouseEvent} */ event) => void listAll(change.job, urls, /** @type {HTMLButtonElement} */ (event.currentTarget)) }, `Show all ${formatInteger(change.removing)} URLs`)
    : null;
  const confirmation = h('div', { class: 'held-confirm', hidden: true, role: 'group', 'aria-label': 'Confirm' },
    h('p', { class: 'small', text: `Remove these ${formatInteger(change.removing)} pages from the index? Searchers will no longer find them.` }),
    h('button', { type: 'button', class: 'button button-small button-danger', onclick: (/** @type {MouseEvent} */ event) => void decide(change.job, 'apply', /** @type {HTMLButtonElement} */ (event.currentTarget), onDecided) }, `Remove ${formatInteger(change.removing)} pages`),
    ' ',
    h('button', { type: 'button', class: 'button button-small button-quiet', onclick: () => { confirmation.hidden = true; } }, 'Cancel'));
  return h('li', { class: 'held-change' },
    h('p', {}, h('strong', { text: `Job ${change.job}` }), ` · ${formatInteger(change.removing)} of ${formatInteger(change.indexed)} pages to remove`),
    h('p', { class: 'small held-reason', text: change.reason }),
    urls,
    more > 0 ? h('p', { class: 'small muted' }, `and ${formatInteger(more)} more. `, showAll) : null,
    h('div', { class: 'held-actions' },
      h('button', {
        type: 'button',
        class: 'button button-small',
        'aria-label': `Apply: the index change of job ${change.job}`,
        onclick: () => {
          confirmation.hidden = false;
          /** @type {HTMLButtonElement | null} */ (confirmation.querySelector('button'))?.focus();
        },
      }, 'Apply…'),
      ' ',
      h('button', {
        type: 'button',
        class: 'button button-small button-quiet',
        'aria-label': `Discard: keep the index as it is, without the change of job ${change.job}`,
        onclick: (/** @type {MouseEvent} */ event) => void decide(change.job, 'discard', /** @type {HTMLButtonElement} */ (event.currentTarget), onDecided),
      }, 'Discard')),
    confirmation);
}

/** @param {string} url */
const urlItem = (url) => h('li', {}, h('a', { href: url, rel: 'noopener noreferrer', text: url }));

/** @param {string} job @param {HTMLElement} list @param {HTMLButtonElement} button */
async function listAll(job, list, button) {
  button.disabled = true;
  try {
    /** @type {{ body: { urls: string[] } }} */
    const { body } = await api(`/jobs/${encodeURIComponent(job)}/held-index`);
    list.replaceChildren(...body.urls.map(urlItem));
    button.parentElement?.remove();
  } catch (error) {
    report(byId('held-index-message'), error);
    button.disabled = false;
  }
}

/** @param {string} job @param {'apply' | 'discard'} action @param {HTMLButtonElement} button @param {() => void} onDecided */
async function decide(job, action, button, onDecided) {
  const message = byId('held-index-message');
  button.disabled = true;
  try {
    if (action === 'apply') await api(`/jobs/${encodeURIComponent(job)}/apply-index`, { method: 'POST' });
    else await api(`/jobs/${encodeURIComponent(job)}/held-index`, { method: 'DELETE' });
    button.closest('li.held-change')?.remove();
    message.textContent = action === 'apply' ? `Applied the index change of job ${job}.` : `Discarded the index change of job ${job}: the index keeps the pages it had.`;
    onDecided();
  } catch (error) {
    report(message, error);
    button.disabled = false;
  }
}
