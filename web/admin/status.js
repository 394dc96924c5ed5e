// @ts-check
/** The status panel: pages by role and state, index facts, the last round; jobs and schedules with it. */
import { byId, byIdAs, h } from '../lib/dom.js';
import { formatDateTime, formatInteger } from '../lib/format.js';
import { api, clearPageError, reportOnPage } from './api.js';
import { stateBadge } from './common.js';
import { renderHeldIndexChanges } from './held-index.js';
import { renderJobs } from './jobs.js';
import { renderSchedules } from './schedules.js';

const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export async function refreshStatus() {
  try {
    renderStatus((await api('/status')).body);
    clearPageError();
  } catch (error) {
    reportOnPage(error);
  }
}

/** @param {any} status  the answer of GET /api/admin/status */
export function renderStatus(status) {
  // What `best` runs comes from the server, so the form never names an older method.
  const best = byId('selector').querySelector('option[value="best"]');
  if (best && typeof status.bestMethod === 'string') best.textContent = `Best: ${status.bestMethod}`;
  renderPagesTable(status.pages ?? {});
  renderPagesNote(status.pages ?? {}, status.lastRound);

  byId('status-frontier').textContent = formatInteger(status.frontier);
  byId('status-hosts').textContent = formatInteger(status.hosts);
  byId('status-documents').textContent = formatInteger(status.index?.documentCount);
  const segments = status.index?.segments ?? [];
  byId('status-segments').replaceChildren(formatInteger(segments.length), h('span', { class: 'small muted', text: ` gen. ${formatInteger(status.index?.generation)}` }));
  byId('status-rank-version').textContent = formatInteger(status.rankVersion);
  const last = status.lastRound;
  byId('status-last-round').replaceChildren(...(last ? [`${String(last.selector).toUpperCase()}, ${formatDateTime(last.startedAt)} `, stateBadge(last.state)] : ['none yet']));
  byId('status-updated').textContent = `Updated at ${timeFormat.format(new Date())}.`;

  renderHeldIndexChanges(status.heldIndexChanges ?? [], () => void refreshStatus());
  renderJobs(status.jobs ?? []);
  renderSchedules(status.schedules ?? []);
}

/**
 * What the counts mean where they mislead: outside pages "disallowed" are mostly hosts whose
 * robots.txt could not be reached (no DNS, refused), not sites that block the crawler.
 * @param {Record<string, Record<string, number>>} pages @param {any} lastRound
 */
function renderPagesNote(pages, lastRound) {
  const note = byId('pages-note');
  const refused = (pages.global?.disallowed ?? 0) + (pages.global?.error ?? 0);
  const hosts = Array.isArray(lastRound?.diagnosis) ? lastRound.diagnosis.length : 0;
  note.hidden = refused === 0;
  note.textContent = refused === 0 ? '' :
    `Local pages are the site's; global ones are outside it, fetched by estimation rounds for their links. ${formatInteger(refused)} global pages were not fetched: ` +
    'a page counts as disallowed when robots.txt forbids it or when its host\'s robots.txt could not be reached (a DNS failure, a refused connection). ' +
    (hosts > 0 ? `The last round lists why for ${formatInteger(hosts)} host${hosts === 1 ? '' : 's'} under Estimation round.` : 'A round lists why per host.');
}

/** Pages by role and state: one row per role, one column per state seen. @param {Record<string, Record<string, number>>} pages */
function renderPagesTable(pages) {
  const roles = Object.keys(pages).sort((a, b) => (a === 'local' ? -1 : b === 'local' ? 1 : a.localeCompare(b)));
  const states = [...new Set(roles.flatMap((role) => Object.keys(pages[role])))].sort();
  const table = byIdAs('pages-table', HTMLTableElement);
  table.tHead?.replaceChildren(h('tr', {}, h('th', { scope: 'col', text: 'Role' }), states.map((s) => h('th', { scope: 'col', class: 'num', text: s })), h('th', { scope: 'col', class: 'num', text: 'total' })));
  const rows = roles.map((role) => {
    const counts = pages[role];
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return h('tr', {}, h('th', { scope: 'row', text: role }), states.map((s) => h('td', { class: 'num', text: formatInteger(counts[s] ?? 0) })), h('td', { class: 'num total', text: formatInteger(total) }));
  });
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: states.length + 2, class: 'muted', text: 'No pages stored yet.' })));
  table.tBodies[0].replaceChildren(...rows);
}
