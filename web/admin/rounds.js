// @ts-check
/** Estimation rounds: the form, the live view over server-sent events, the round's chart. */
import { byId, byIdAs, h } from '../lib/dom.js';
import { formatDuration, formatInteger, formatNumber } from '../lib/format.js';
import { API, api, currentToken, report, tokenRefused } from './api.js';
import { isOver, jobEnded, messageOf, readInteger } from './common.js';
import { readEvents } from './event-stream.js';
import { drawChart } from './round-chart.js';

/** @typedef {import('./types.js').Round} Round */
/** @typedef {import('./types.js').RoundStep} RoundStep */

const STREAM_RETRY_MS = 2000;
const ANNOUNCE_EVERY_MS = 5000;

/** The round shown in the live panel. @type {Round | null} */
let shownRound = null;
/** Aborts the event stream of the watched round. @type {AbortController | null} */
let watchController = null;
/** @type {ReturnType<typeof setInterval> | undefined} */
let elapsedTimer;
/** What the live region said last, for which state, when. */
let lastAnnounced = { text: '', state: '', at: 0 };

export const shownRoundOf = () => shownRound;

export function forgetShownRound() {
  shownRound = null;
}

/**
 * Shows a round in the live panel; streams its progress while it runs.
 * @param {Round} round
 * @param {{ watch?: boolean }} [options]
 */
export function showRound(round, { watch = false } = {}) {
  stopWatching();
  shownRound = round;
  lastAnnounced = { text: '', state: '', at: 0 };
  renderRound(round);
  if (watch && !isOver(round.state)) void watchRound(round.id);
}

export function stopWatching() {
  watchController?.abort();
  watchController = null;
  clearInterval(elapsedTimer);
}

/** Follows a round's server-sent events until it ends. @param {string} id */
async function watchRound(id) {
  const controller = new AbortController();
  watchController = controller;
  clearInterval(elapsedTimer);
  elapsedTimer = setInterval(() => shownRound && renderElapsed(shownRound), 1000);
  try {
    for (;;) {
      const response = await fetch(`${API}/rounds/${encodeURIComponent(id)}/events`, { headers: { authorization: `Bearer ${currentToken()}`, accept: 'text/event-stream' }, signal: controller.signal });
      if (response.status === 401) {
        tokenRefused();
        return;
      }
      if (!response.ok || !response.body) throw new Error(`the progress stream answered ${response.status}`);
      await readEvents(response.body, (event, data) => {
        if (event !== 'status' || controller.signal.aborted) return;
        /** @type {Round} */
        const round = { ...shownRound, ...JSON.parse(data) };
        shownRound = round;
        renderRound(round);
      });
      if (shownRound && isOver(shownRound.state)) break;
      // The stream closed while the round still runs (a proxy, a restart): open it again.
      await new Promise((resolve) => setTimeout(resolve, STREAM_RETRY_MS));
      if (controller.signal.aborted) return;
    }
    clearInterval(elapsedTimer);
    await jobEnded();
  } catch (error) {
    if (controller.signal.aborted) return;
    clearInterval(elapsedTimer);
    report(byId('round-error'), new Error(`Lost the round's progress stream: ${messageOf(error)}`));
  } finally {
    if (watchController === controller) watchController = null;
  }
}

/** @param {Round} round */
function renderRound(round) {
  const running = !isOver(round.state);
  byId('round-label').textContent = `Round ${round.id} · ${String(round.selector ?? '').toUpperCase()}`;
  const badge = byId('round-state');
  badge.hidden = false;
  badge.textContent = round.state;
  badge.className = `badge badge-${round.state}`;
  const progress = byIdAs('round-progress', HTMLProgressElement);
  progress.max = Math.max(1, round.iterations ?? 1);
  progress.value = round.iteration ?? 0;
  byId('stat-iteration').textContent = `${formatInteger(round.iteration)} of ${formatInteger(round.iterations)}`;
  byId('stat-crawled').textContent = (round.extraPages ? `${formatInteger(round.crawled)} of ${formatInteger(round.extraPages)}` : formatInteger(round.crawled)) +
    (round.failedPages ? ` (${formatInteger(round.failedPages)} could not be fetched)` : '');
  byId('stat-frontier').textContent = formatInteger(round.frontier);
  byId('stat-change').textContent = (round.iteration ?? 0) > 0 ? formatNumber(round.change) : '–';
  byId('stat-truth').textContent = round.l1ToTruth === undefined ? 'unknown (no truth)' : formatNumber(round.l1ToTruth);
  renderElapsed(round);
  const error = byId('round-error');
  error.hidden = !round.error;
  error.textContent = round.error ? `The round failed: ${round.error}` : '';
  renderDiagnosis(round);
  byIdAs('cancel-round', HTMLButtonElement).disabled = !running;
  if (!running) byId('round-note').textContent = '';
  const start = byIdAs('start-round', HTMLButtonElement);
  start.disabled = running;
  start.title = running ? 'A round is queued or running: wait for it or cancel it.' : '';
  announce(round);
  renderHistoryTable(round.history ?? []);
  drawChart(round);
}

/**
 * Why the round stored fewer pages than it asked for, per host and cause (DNS failure, refused
 * connection, robots.txt…) with what to do, as the crawl says it; and the round's own note (a
 * round that fetched nothing keeps the previous ranks).
 * @param {Round} round
 */
function renderDiagnosis(round) {
  const box = byId('round-diagnosis');
  const hosts = round.diagnosis ?? [];
  byId('round-diagnosis-note').textContent = round.note ?? '';
  byId('round-diagnosis-list').replaceChildren(...hosts.slice(0, 10).map((host) =>
    h('li', {}, h('strong', { text: host.host }), ': ', host.causes.map((c) => `${c.what} — ${formatInteger(c.count)} page${c.count === 1 ? '' : 's'}. ${c.todo.charAt(0).toUpperCase()}${c.todo.slice(1)}.`).join(' '))));
  box.hidden = hosts.length === 0 && !round.note;
}

/** Announces a new state at once, iterations at most every few seconds (a screen reader would drown). @param {Round} round */
function announce(round) {
  const announcement = isOver(round.state)
    ? `Round ${round.state}: ${formatInteger(round.iteration)} of ${formatInteger(round.iterations)} iterations, ${formatInteger(round.crawled)} pages crawled.`
    : `Round ${round.state}: iteration ${formatInteger(round.iteration)} of ${formatInteger(round.iterations)}, ${formatInteger(round.crawled)} pages crawled.`;
  const now = Date.now();
  if (announcement !== lastAnnounced.text && (round.state !== lastAnnounced.state || now - lastAnnounced.at >= ANNOUNCE_EVERY_MS)) {
    byId('round-live').textContent = announcement;
    lastAnnounced = { text: announcement, state: round.state, at: now };
  }
}

/** @param {Round} round */
function renderElapsed(round) {
  const end = round.finishedAt ?? (isOver(round.state) ? undefined : Date.now());
  byId('stat-elapsed').textContent = end && round.startedAt ? formatDuration(end - round.startedAt) : '–';
}

/** @param {RoundStep[]} history */
function renderHistoryTable(history) {
  const rows = history.map((step) =>
    h('tr', {},
      h('th', { scope: 'row', text: formatInteger(step.iteration) }),
      h('td', { class: 'num', text: formatInteger(step.crawled) }),
      h('td', { class: 'num', text: step.iteration > 0 ? formatNumber(step.change) : '–' }),
      h('td', { class: 'num', text: formatNumber(step.l1ToTruth) }),
      h('td', { class: 'num', text: formatDuration(step.ms) })));
  byIdAs('history-table', HTMLTableElement).tBodies[0].replaceChildren(...rows);
}

/** Wires the round form, its budget switch and the cancel button. */
export function initRoundForm() {
  const roundForm = byIdAs('round-form', HTMLFormElement);
  for (const radio of roundForm.querySelectorAll('input[name="budget-kind"]')) {
    radio.addEventListener('change', () => {
      const perIteration = byIdAs('budget-per-iteration', HTMLInputElement).checked;
      byIdAs('pages-per-iteration', HTMLInputElement).disabled = !perIteration;
      byIdAs('extra-pages', HTMLInputElement).disabled = perIteration;
    });
  }
  roundForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void startRound();
  });
  byId('cancel-round').addEventListener('click', () => void cancelRound());
}

async function startRound() {
  const error = byId('round-form-error');
  error.textContent = '';
  /** @type {{ selector: string, iterations: number, pagesPerIteration?: number, extraPages?: number, fresh?: boolean }} */
  let body;
  try {
    body = { selector: byIdAs('selector', HTMLSelectElement).value, iterations: readInteger(byId('iterations'), 'Iterations') };
    if (byIdAs('budget-per-iteration', HTMLInputElement).checked) body.pagesPerIteration = readInteger(byId('pages-per-iteration'), 'Pages per iteration');
    else body.extraPages = readInteger(byId('extra-pages'), 'Total extra pages');
    if (byIdAs('fresh-round', HTMLInputElement).checked) body.fresh = true;
  } catch (invalid) {
    error.textContent = messageOf(invalid);
    return;
  }
  const button = byIdAs('start-round', HTMLButtonElement);
  button.disabled = true;
  try {
    const { body: started } = await api('/rounds', { method: 'POST', body });
    showRound({ id: started.id, state: 'queued', selector: body.selector, iteration: 0, iterations: body.iterations, crawled: 0, frontier: 0, change: 0, history: [], startedAt: Date.now() }, { watch: true });
  } catch (failure) {
    report(error, failure);
    button.disabled = false;
  }
}

async function cancelRound() {
  if (!shownRound) return;
  const button = byIdAs('cancel-round', HTMLButtonElement);
  button.disabled = true;
  try {
    const { status } = await api(`/rounds/${encodeURIComponent(shownRound.id)}`, { method: 'DELETE' });
    // The stream may have reported the end before this answer came back: then there is nothing to say.
    if (shownRound && !isOver(shownRound.state)) byId('round-note').textContent = status === 409 ? 'That round had already ended.' : 'Cancelling the round…';
  } catch (error) {
    report(byId('round-form-error'), error);
    button.disabled = false;
  }
}
