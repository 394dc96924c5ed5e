// @ts-check
/** The schedules table, each with a "Run now" button. */
import { byId, byIdAs, h } from '../lib/dom.js';
import { formatDateTime, formatInteger, formatRelative } from '../lib/format.js';
import { api, report } from './api.js';
import { trackJob } from './jobs.js';
import { showRound } from './rounds.js';

/** @typedef {import('./types.js').Schedule} Schedule */

/** @type {Record<string, string>} */
const SCHEDULE_NAMES = { recrawl: 'Re-crawl', estimate: 'Estimation round', 'analytics-retention': 'Search analytics clean-up' };

/** @param {Schedule[]} schedules */
export function renderSchedules(schedules) {
  const rows = schedules.map((schedule) => {
    const title = SCHEDULE_NAMES[schedule.name] ?? schedule.name;
    return h('tr', {},
      h('th', { scope: 'row', text: title }),
      h('td', {}, h('code', { class: 'cron', text: schedule.cron })),
      h('td', {}, schedule.nextRun ? [h('span', { text: formatDateTime(schedule.nextRun) }), h('br'), h('span', { class: 'small muted', text: formatRelative(schedule.nextRun) })] : '–'),
      h('td', { text: schedule.lastFired ? formatDateTime(schedule.lastFired) : 'never' }),
      h('td', {}, schedule.lastJob ? h('code', { class: 'small', text: schedule.lastJob }) : '–'),
      h('td', { class: 'num', text: formatInteger(schedule.skipped ?? 0) }),
      h('td', {}, h('button', {
        type: 'button',
        class: 'button button-small',
        // The visible text first in the name (WCAG 2.5.3, label in name).
        'aria-label': `Run now: the ${title.toLowerCase()} schedule`,
        onclick: (/** @type {MouseEvent} */ event) => void runSchedule(schedule.name, /** @type {HTMLButtonElement} */ (event.currentTarget)),
      }, 'Run now')));
  });
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: 7, class: 'muted', text: 'No schedules configured (schedules.recrawl, schedules.estimate).' })));
  byIdAs('schedules-table', HTMLTableElement).tBodies[0].replaceChildren(...rows);
}

/** @param {string} name @param {HTMLButtonElement} button */
async function runSchedule(name, button) {
  const message = byId('schedules-message');
  button.disabled = true;
  try {
    const { status, body } = await api(`/schedules/${encodeURIComponent(name)}/run`, { method: 'POST' });
    if (status === 409) {
      message.textContent = body.message ?? `A ${name} job is already queued or running.`;
      return;
    }
    message.textContent = `Started ${SCHEDULE_NAMES[name]?.toLowerCase() ?? name} job ${body.id}.`;
    if (String(body.id).startsWith('round-')) {
      const round = (await api(`/rounds/${encodeURIComponent(body.id)}`)).body;
      showRound(round, { watch: true });
    } else {
      trackJob({ id: body.id, kind: name === 'recrawl' ? 'recrawl' : 'crawl', state: 'queued', queuedAt: Date.now() });
    }
  } catch (error) {
    report(message, error);
  } finally {
    button.disabled = false;
  }
}
