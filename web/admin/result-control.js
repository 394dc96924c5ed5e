// @ts-check
/** One URL in the results: inspect it (indexed? fetched when? why not? rank versions), remove it, lift a removal. */
import { byId, byIdAs, h } from '../lib/dom.js';
import { formatDateTime, formatNumber } from '../lib/format.js';
import { api, report } from './api.js';

const urlInput = () => byIdAs('inspect-url', HTMLInputElement);

/** @param {string} url */
async function inspect(url) {
  const error = byId('inspect-error');
  error.textContent = '';
  try {
    const { body } = await api(`/inspect?url=${encodeURIComponent(url)}`);
    renderInspection(body);
  } catch (failure) {
    report(error, failure);
  }
}

/** @param {any} found  the answer of GET /api/admin/inspect */
function renderInspection(found) {
  /** @type {Array<[string, string]>} */
  const rows = [
    ['In the results', found.searchable ? 'yes' : 'no'],
    ['In the index', found.inIndex ? 'yes' : 'no'],
    ['Removed by an admin', found.removedByAdmin ? 'yes' : 'no'],
  ];
  if (found.whyNotIndexed) rows.push(['Why not in the index', found.whyNotIndexed]);
  if (found.page) {
    rows.push(['Fetched', `${formatDateTime(found.page.fetchedAt)} (HTTP ${found.page.status}, ${found.page.state})`]);
    if (found.page.lang) rows.push(['Language', found.page.lang]);
  }
  for (const rank of found.ranks ?? []) rows.push([`${rank.name} v${rank.version}`, rank.value === null ? 'not in this version' : formatNumber(rank.value)]);
  byId('inspection').replaceChildren(h('dl', { class: 'facts inspection' }, rows.map(([name, value]) => h('div', {}, h('dt', { text: name }), h('dd', { text: value })))));
}

export async function loadRemoved() {
  const { body } = await api('/removed');
  /** @type {Array<{ url: string, removedAt: number }>} */
  const removed = body.removed ?? [];
  const rows = removed.map((entry) => h('tr', {},
    h('td', { class: 'url-cell' }, h('code', { class: 'small', text: entry.url })),
    h('td', { class: 'small', text: formatDateTime(entry.removedAt) }),
    h('td', {}, h('button', { type: 'button', class: 'button button-small', 'aria-label': `Lift: put ${entry.url} back in results`, onclick: () => void lift(entry.url) }, 'Lift'))));
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: 3, class: 'muted', text: 'No URL is removed.' })));
  byIdAs('removed-table', HTMLTableElement).tBodies[0].replaceChildren(...rows);
}

/** @param {string} url */
async function lift(url) {
  try {
    await api(`/removed?url=${encodeURIComponent(url)}`, { method: 'DELETE' });
    await loadRemoved();
    if (urlInput().value.trim() === url) await inspect(url);
  } catch (failure) {
    report(byId('inspect-error'), failure);
  }
}

/** The URL typed, or an error shown and null. */
function typedUrl() {
  const url = urlInput().value.trim();
  if (!/^https?:\/\/\S+$/.test(url)) {
    byId('inspect-error').textContent = 'Enter a full URL starting with http:// or https://.';
    urlInput().setAttribute('aria-invalid', 'true');
    return null;
  }
  urlInput().setAttribute('aria-invalid', 'false');
  return url;
}

export function initResultControl() {
  byId('inspect-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const url = typedUrl();
    if (url) void inspect(url);
  });
  byId('remove-button').addEventListener('click', async () => {
    const url = typedUrl();
    if (!url) return;
    try {
      await api('/removed', { method: 'POST', body: { url } });
      await loadRemoved();
      await inspect(url);
    } catch (failure) {
      report(byId('inspect-error'), failure);
    }
  });
}
