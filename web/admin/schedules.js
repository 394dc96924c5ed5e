// @ts-check
/**
 * The schedules table: each in words with its time zone and next firing, the re-crawl and the
 * estimation round editable (a cron expression or "off", checked by the server and applied
 * from the next firing, no restart), each with a "Run now" button.
 */
import { byId, byIdAs, h } from '../lib/dom.js';
import { formatDateTime, formatInteger, formatRelative } from '../lib/format.js';
import { ApiError, api, report } from './api.js';
import { trackJob } from './jobs.js';
import { showRound } from './rounds.js';

/** @typedef {import('./types.js').Schedule} Schedule */

/** @type {Record<string, string>} */
const SCHEDULE_NAMES = { recrawl: 'Re-crawl', estimate: 'Estimation round', 'analytics-retention': 'Search analytics clean-up' };

/** @param {Schedule[]} schedules */
export function renderSchedules(schedules) {
  const rows = schedules.map((schedule) => {
    const title = SCHEDULE_NAMES[schedule.name] ?? schedule.name;
    return h('tr', { 'data-schedule': schedule.name },
      h('th', { scope: 'row', text: title }),
      h('td', {}, whenCell(schedule, title)),
      h('td', {}, schedule.nextRun ? [h('span', { text: formatDateTime(schedule.nextRun) }), h('br'), h('span', { class: 'small muted', text: formatRelative(schedule.nextRun) })] : '–'),
      h('td', { text: schedule.lastFired ? formatDateTime(schedule.lastFired) : 'never' }),
      h('td', {}, schedule.lastJob ? h('code', { class: 'small', text: schedule.lastJob }) : '–'),
      h('td', { class: 'num', text: formatInteger(schedule.skipped ?? 0) }),
      h('td', {}, schedule.cron === 'off' ? null : h('button', {
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

/**
 * The schedule in words ("every day at 03:00, Europe/Berlin time"), its cron expression, and for
 * an editable one a form to change it.
 * @param {Schedule} schedule @param {string} title
 */
function whenCell(schedule, title) {
  const words = schedule.cron === 'off'
    ? h('span', { class: 'muted', text: 'off' })
    : h('span', {}, `${schedule.description ?? schedule.cron}`, schedule.timeZone ? h('span', { class: 'small muted', text: ` (${schedule.timeZone} time)` }) : null, h('br'), h('code', { class: 'cron small', text: schedule.cron }));
  if (!schedule.editable) return words;
  const id = `schedule-cron-${schedule.name}`;
  const input = h('input', { id, type: 'text', value: schedule.cron, spellcheck: 'false', autocomplete: 'off', 'aria-describedby': 'schedules-hint' });
  const form = h('form', { class: 'schedule-edit', novalidate: true, onsubmit: (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    void saveSchedule(schedule.name, /** @type {HTMLInputElement} */ (input), /** @type {HTMLButtonElement} */ (form.querySelector('button')));
  } },
  h('label', { for: id, class: 'visually-hidden', text: `Cron expression of the ${title.toLowerCase()} schedule` }),
  input,
  h('button', { type: 'submit', class: 'button button-small button-quiet', 'aria-label': `Save: the ${title.toLowerCase()} schedule` }, 'Save'));
  return h('div', {}, words, form);
}

/** @param {string} name @param {HTMLInputElement} input @param {HTMLButtonElement} button */
async function saveSchedule(name, input, button) {
  const message = byId('schedules-message');
  button.disabled = true;
  try {
    const { body } = await api(`/schedules/${encodeURIComponent(name)}`, { method: 'PUT', body: { cron: input.value } });
    input.setAttribute('aria-invalid', 'false');
    /** @type {Schedule} */
    const saved = body.schedule;
    message.textContent = saved.cron === 'off'
      ? `${SCHEDULE_NAMES[name] ?? name}: off.`
      : `${SCHEDULE_NAMES[name] ?? name}: ${saved.description} (${saved.timeZone} time); next ${saved.nextRun ? formatDateTime(saved.nextRun) : 'never'}.`;
    renderSchedules((await api('/status')).body.schedules ?? []);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
    report(message, error);
  } finally {
    button.disabled = false;
  }
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
