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
