// @ts-check
/** Divergence: the local pages whose estimated global PageRank differs most from their local one. */
import { byId, byIdAs, h } from '../lib/dom.js';
import { formatNumber, formatRatio } from '../lib/format.js';
import { api, reportOnPage } from './api.js';

/** @typedef {{ url: string, localPageRank: number, globalPageRank: number, ratio: number | null }} DivergentPage */

export async function loadDivergence() {
  const limit = byIdAs('divergence-limit', HTMLSelectElement).value;
  const { body } = await api(`/pages/divergence?limit=${encodeURIComponent(limit)}`);
  renderDivergence(body.pages ?? []);
}

export function initDivergence() {
  byId('divergence-limit').addEventListener('change', () => void loadDivergence().catch(reportOnPage));
}

/** A URL as people read it: host and decoded path. @param {string} url */
export function displayUrl(url) {
  try {
    const parsed = new URL(url);
    return { host: parsed.host, path: decodeURIComponent(parsed.pathname + parsed.search) };
  } catch {
    return { host: '', path: url };
  }
}

/** @param {DivergentPage[]} pages */
function renderDivergence(pages) {
  byId('divergence-empty').hidden = pages.length > 0;
  // ×1.000 everywhere: the estimate is the local PageRank (no page outside the site moved it).
  const unchanged = pages.length > 0 && pages.every((page) => typeof page.ratio === 'number' && Math.abs(page.ratio - 1) < 5e-4);
  const note = byId('divergence-note');
  note.hidden = !unchanged;
  note.textContent = unchanged
    ? 'Every ratio is ×1.000: the global estimate equals the local PageRank, because no estimation round has fetched pages outside the site that link here (see the round\'s reasons above). The table shows where the two differ once one has.'
    : '';
  const scroll = byId('divergence-table').closest('.table-scroll');
  if (scroll instanceof HTMLElement) scroll.hidden = pages.length === 0;
  const rows = pages.map((page, i) => {
    const { host, path } = displayUrl(page.url);
    // JSON has no Infinity: a page with no local PageRank comes back with a null ratio.
    const ratio = typeof page.ratio === 'number' ? page.ratio : Infinity;
    const direction = Math.abs(ratio - 1) < 5e-4 ? 'same' : ratio > 1 ? 'up' : 'down';
    return h('tr', {},
      h('td', { class: 'num muted rank-cell', text: String(i + 1) }),
      h('td', { class: 'url-cell' }, h('a', { href: page.url, rel: 'noopener noreferrer', title: page.url }, h('span', { class: 'url-host', text: host }), h('span', { class: 'url-path', text: path }))),
      h('td', { class: 'num', 'data-label': 'Local', text: formatNumber(page.localPageRank) }),
      h('td', { class: 'num', 'data-label': 'Global', text: formatNumber(page.globalPageRank) }),
      h('td', { class: `num ratio ratio-${direction}`, 'data-label': 'Ratio' },
        h('span', { 'aria-hidden': 'true', class: 'ratio-arrow', text: direction === 'up' ? '▲ ' : direction === 'down' ? '▼ ' : '' }),
        `×${formatRatio(ratio)}`,
        h('span', { class: direction === 'same' ? 'small muted' : 'visually-hidden', text: direction === 'up' ? ' (higher globally)' : direction === 'down' ? ' (lower globally)' : ' (same)' })));
  });
  byIdAs('divergence-table', HTMLTableElement).tBodies[0].replaceChildren(...rows);
}
