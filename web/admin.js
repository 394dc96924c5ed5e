// The admin page: sign in with the admin token, start and watch estimation rounds, start crawls
// and re-crawls, see the status, the schedules and where the global estimate departs from the
// local PageRank. Plain DOM, no framework; every server string goes in as text, never as HTML.

const API = '/api/admin';
const TOKEN_KEY = 'lse-admin-token';
const SVG_NS = 'http://www.w3.org/2000/svg';
// The admin API allows 60 requests a minute per route: status every 20 s, a job every 1.5 s.
const STATUS_REFRESH_MS = 20_000;
const JOB_POLL_MS = 1500;
const STREAM_RETRY_MS = 2000;
const ANNOUNCE_EVERY_MS = 5000;

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

// ---------------------------------------------------------------------------------------------
// Formatting

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
const superscript = (n) => String(n).replace(/[-0-9]/g, (c) => SUPERSCRIPT[c]);
const integerFormat = new Intl.NumberFormat('en');
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

function formatInteger(value) {
  return typeof value === 'number' && Number.isFinite(value) ? integerFormat.format(value) : '–';
}

/** Three significant digits; very small or large values as m × 10ⁿ (readable, no "e-7"). */
function formatNumber(value) {
  if (typeof value !== 'number' || Number.isNaN(value)) return '–';
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e5) return String(Number(value.toPrecision(3)));
  const exponent = Math.floor(Math.log10(magnitude));
  const mantissa = Number((value / 10 ** exponent).toPrecision(3));
  return `${mantissa} × 10${superscript(exponent)}`;
}

/** A power of ten as an axis label: 0.01 … 1000 plainly, otherwise 10ⁿ. */
function formatPowerOfTen(exponent, multiple = 1) {
  if (exponent >= -3 && exponent <= 3) return String(Number((multiple * 10 ** exponent).toPrecision(3)));
  return multiple === 1 ? `10${superscript(exponent)}` : `${multiple}·10${superscript(exponent)}`;
}

/** A ratio near 1 needs decimals (×1.012), a large one does not (×250). */
function formatRatio(value) {
  if (typeof value !== 'number' || Number.isNaN(value)) return '–';
  if (!Number.isFinite(value)) return '∞';
  return value >= 0.01 && value < 10 ? value.toFixed(3) : formatNumber(value);
}

function formatDuration(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function formatDateTime(value) {
  if (value === undefined || value === null) return '–';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '–' : dateTimeFormat.format(date);
}

const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
function formatRelative(value) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const seconds = (date.getTime() - Date.now()) / 1000;
  const units = [['day', 86_400], ['hour', 3600], ['minute', 60], ['second', 1]];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === 'second') return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return '';
}

// ---------------------------------------------------------------------------------------------
// DOM helpers

/** An element with attributes and children (strings become text nodes). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') element.className = value;
    else if (name === 'text') element.textContent = value;
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null) element.append(child);
  return element;
}

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  for (const child of children.flat()) if (child !== undefined && child !== null) element.append(child);
  return element;
}

function stateBadge(state) {
  return h('span', { class: `badge badge-${state}`, text: state });
}

const isOver = (state) => state === 'done' || state === 'failed' || state === 'cancelled';

// ---------------------------------------------------------------------------------------------
// The token and the API

let token = sessionStorage.getItem(TOKEN_KEY) ?? '';

class Unauthorized extends Error {}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the admin API with the token; a 401 anywhere signs out and says why. */
async function api(path, { method = 'GET', body, signal } = {}) {
  const headers = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${API}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  if (response.status === 401) {
    signOut('Wrong token: the server refused it. Sign in again.');
    throw new Unauthorized('wrong token');
  }
  const payload = await response.json().catch(() => ({}));
  if (response.status === 429) throw new ApiError(429, 'Too many requests for now: the admin API allows 60 a minute. Try again shortly.');
  if (!response.ok && response.status !== 409) throw new ApiError(response.status, payload.message ?? `the server answered ${response.status}`);
  return { status: response.status, body: payload };
}

/** Reports an API failure in a message element (a 401 has already signed out). */
function report(element, error) {
  if (error instanceof Unauthorized || error?.name === 'AbortError') return;
  element.textContent = error instanceof Error ? error.message : String(error);
  element.hidden = false;
}

/** Clears a page-wide error once the server answers again. */
function clearPageError() {
  const message = $('dashboard-message');
  message.textContent = '';
  message.hidden = true;
}

// ---------------------------------------------------------------------------------------------
// Sign in and out

let statusTimer;

function showSignIn(error = '') {
  stopWatching();
  stopJobPolling();
  clearInterval(statusTimer);
  $('dashboard').hidden = true;
  $('sign-out').hidden = true;
  $('sign-in').hidden = false;
  $('sign-in-error').textContent = error;
  $('token').setAttribute('aria-invalid', error ? 'true' : 'false');
  $('token').focus();
}

function signOut(reason = '') {
  token = '';
  shownRound = null;
  sessionStorage.removeItem(TOKEN_KEY);
  showSignIn(reason);
}

async function signIn(candidate, { focus = true } = {}) {
  token = candidate;
  const { body: status } = await api('/status');
  sessionStorage.setItem(TOKEN_KEY, token);
  $('sign-in').hidden = true;
  $('token').value = '';
  $('dashboard').hidden = false;
  $('sign-out').hidden = false;
  if (focus) $('dashboard-title').focus();
  clearPageError();
  renderStatus(status);
  const current = status.lastRound;
  if (current) showRound(current, { watch: !isOver(current.state) });
  else drawChart(null);
  await Promise.all([loadRounds(), loadDivergence()]).catch((error) => report($('dashboard-message'), error));
  clearInterval(statusTimer);
  statusTimer = setInterval(() => {
    if (document.visibilityState === 'visible') void refreshStatus();
  }, STATUS_REFRESH_MS);
}

$('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const candidate = /** @type {HTMLInputElement} */ ($('token')).value.trim();
  if (!candidate) {
    $('sign-in-error').textContent = 'Enter the admin token.';
    $('token').setAttribute('aria-invalid', 'true');
    return;
  }
  $('sign-in-error').textContent = '';
  try {
    await signIn(candidate);
  } catch (error) {
    if (!(error instanceof Unauthorized)) {
      token = '';
      $('sign-in-error').textContent = `Cannot reach the server: ${error.message}`;
    }
  }
});

$('sign-out').addEventListener('click', () => signOut());

// ---------------------------------------------------------------------------------------------
// Status

async function refreshStatus() {
  try {
    renderStatus((await api('/status')).body);
    clearPageError();
  } catch (error) {
    report($('dashboard-message'), error);
  }
}

$('refresh-status').addEventListener('click', () => void refreshStatus());

function renderStatus(status) {
  // What `best` runs comes from the server, so the form never names an older method.
  const best = $('selector').querySelector('option[value="best"]');
  if (best && typeof status.bestMethod === 'string') best.textContent = `Best: ${status.bestMethod}`;
  // Pages by role and state: one row per role, one column per state seen.
  const roles = Object.keys(status.pages ?? {}).sort((a, b) => (a === 'local' ? -1 : b === 'local' ? 1 : a.localeCompare(b)));
  const states = [...new Set(roles.flatMap((role) => Object.keys(status.pages[role])))].sort();
  const table = /** @type {HTMLTableElement} */ ($('pages-table'));
  table.tHead.replaceChildren(h('tr', {}, h('th', { scope: 'col', text: 'Role' }), states.map((s) => h('th', { scope: 'col', class: 'num', text: s })), h('th', { scope: 'col', class: 'num', text: 'total' })));
  const rows = roles.map((role) => {
    const counts = status.pages[role];
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return h('tr', {}, h('th', { scope: 'row', text: role }), states.map((s) => h('td', { class: 'num', text: formatInteger(counts[s] ?? 0) })), h('td', { class: 'num total', text: formatInteger(total) }));
  });
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: states.length + 2, class: 'muted', text: 'No pages stored yet.' })));
  table.tBodies[0].replaceChildren(...rows);

  $('status-frontier').textContent = formatInteger(status.frontier);
  $('status-hosts').textContent = formatInteger(status.hosts);
  $('status-documents').textContent = formatInteger(status.index?.documentCount);
  const segments = status.index?.segments ?? [];
  $('status-segments').replaceChildren(formatInteger(segments.length), h('span', { class: 'small muted', text: ` gen. ${formatInteger(status.index?.generation)}` }));
  $('status-rank-version').textContent = formatInteger(status.rankVersion);
  const last = status.lastRound;
  $('status-last-round').replaceChildren(...(last ? [`${last.selector.toUpperCase()}, ${formatDateTime(last.startedAt)} `, stateBadge(last.state)] : ['none yet']));
  $('status-updated').textContent = `Updated at ${timeFormat.format(new Date())}.`;

  renderJobs(status.jobs ?? []);
  renderSchedules(status.schedules ?? []);
}

// ---------------------------------------------------------------------------------------------
// Estimation rounds: the form, the live view over server-sent events, the chart

const roundForm = /** @type {HTMLFormElement} */ ($('round-form'));
/** The round shown in the live panel. */
let shownRound = null;
/** Aborts the event stream of the watched round. */
let watchController = null;
let elapsedTimer;
/** What the live region said last, for which state, when. */
let lastAnnounced = { text: '', state: '', at: 0 };

for (const radio of roundForm.querySelectorAll('input[name="budget-kind"]')) {
  radio.addEventListener('change', () => {
    const perIteration = /** @type {HTMLInputElement} */ ($('budget-per-iteration')).checked;
    /** @type {HTMLInputElement} */ ($('pages-per-iteration')).disabled = !perIteration;
    /** @type {HTMLInputElement} */ ($('extra-pages')).disabled = perIteration;
  });
}

/** A whole number within [min, max] from an input, or an error message naming the field. */
function readInteger(input, name) {
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

roundForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const error = $('round-form-error');
  error.textContent = '';
  let body;
  try {
    body = { selector: /** @type {HTMLSelectElement} */ ($('selector')).value, iterations: readInteger($('iterations'), 'Iterations') };
    if (/** @type {HTMLInputElement} */ ($('budget-per-iteration')).checked) body.pagesPerIteration = readInteger($('pages-per-iteration'), 'Pages per iteration');
    else body.extraPages = readInteger($('extra-pages'), 'Total extra pages');
  } catch (invalid) {
    error.textContent = invalid.message;
    return;
  }
  const button = /** @type {HTMLButtonElement} */ ($('start-round'));
  button.disabled = true;
  try {
    const { body: started } = await api('/rounds', { method: 'POST', body });
    const queued = { id: started.id, state: 'queued', selector: body.selector, iteration: 0, iterations: body.iterations, crawled: 0, frontier: 0, change: 0, history: [], startedAt: Date.now() };
    showRound(queued, { watch: true });
  } catch (failure) {
    report(error, failure);
    button.disabled = false;
  }
});

$('cancel-round').addEventListener('click', async () => {
  if (!shownRound) return;
  const button = /** @type {HTMLButtonElement} */ ($('cancel-round'));
  button.disabled = true;
  try {
    const { status } = await api(`/rounds/${encodeURIComponent(shownRound.id)}`, { method: 'DELETE' });
    // The stream may have reported the end before this answer came back: then there is nothing to say.
    if (shownRound && !isOver(shownRound.state)) $('round-note').textContent = status === 409 ? 'That round had already ended.' : 'Cancelling the round…';
  } catch (error) {
    report($('round-form-error'), error);
    button.disabled = false;
  }
});

/** Shows a round in the live panel; streams its progress while it runs. */
function showRound(round, { watch = false } = {}) {
  stopWatching();
  shownRound = round;
  lastAnnounced = { text: '', state: '', at: 0 };
  renderRound(round);
  if (watch && !isOver(round.state)) void watchRound(round.id);
}

function stopWatching() {
  watchController?.abort();
  watchController = null;
  clearInterval(elapsedTimer);
}

/**
 * Follows a round's server-sent events. EventSource cannot send the Authorization header, so the
 * stream is read with fetch and parsed here: blocks separated by a blank line, `event:` and
 * `data:` fields, comment lines (keep-alives) starting with a colon.
 */
async function watchRound(id) {
  const controller = new AbortController();
  watchController = controller;
  clearInterval(elapsedTimer);
  elapsedTimer = setInterval(() => shownRound && renderElapsed(shownRound), 1000);
  try {
    for (;;) {
      const response = await fetch(`${API}/rounds/${encodeURIComponent(id)}/events`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
      if (response.status === 401) {
        signOut('Wrong token: the server refused it. Sign in again.');
        return;
      }
      if (!response.ok || !response.body) throw new Error(`the progress stream answered ${response.status}`);
      await readEvents(response.body, (event, data) => {
        if (event !== 'status' || controller.signal.aborted) return;
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
    await Promise.all([refreshStatus(), loadRounds(), loadDivergence()]);
  } catch (error) {
    if (controller.signal.aborted) return;
    clearInterval(elapsedTimer);
    report($('round-error'), new Error(`Lost the round's progress stream: ${error.message}`));
  } finally {
    if (watchController === controller) watchController = null;
  }
}

async function readEvents(stream, onEvent) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
      if (data.length > 0) onEvent(event, data.join('\n'));
    }
  }
}

function renderRound(round) {
  const running = !isOver(round.state);
  $('round-label').textContent = `Round ${round.id} · ${String(round.selector ?? '').toUpperCase()}`;
  const badge = $('round-state');
  badge.hidden = false;
  badge.textContent = round.state;
  badge.className = `badge badge-${round.state}`;
  const progress = /** @type {HTMLProgressElement} */ ($('round-progress'));
  progress.max = Math.max(1, round.iterations ?? 1);
  progress.value = round.iteration ?? 0;
  $('stat-iteration').textContent = `${formatInteger(round.iteration)} of ${formatInteger(round.iterations)}`;
  $('stat-crawled').textContent = round.extraPages ? `${formatInteger(round.crawled)} of ${formatInteger(round.extraPages)}` : formatInteger(round.crawled);
  $('stat-frontier').textContent = formatInteger(round.frontier);
  $('stat-change').textContent = (round.iteration ?? 0) > 0 ? formatNumber(round.change) : '–';
  $('stat-truth').textContent = round.l1ToTruth === undefined ? 'unknown (no truth)' : formatNumber(round.l1ToTruth);
  renderElapsed(round);
  const error = $('round-error');
  error.hidden = !round.error;
  error.textContent = round.error ? `The round failed: ${round.error}` : '';
  /** @type {HTMLButtonElement} */ ($('cancel-round')).disabled = !running;
  if (!running) $('round-note').textContent = '';
  /** @type {HTMLButtonElement} */ ($('start-round')).disabled = running;
  $('start-round').title = running ? 'A round is queued or running: wait for it or cancel it.' : '';

  // Announce a new state at once, iterations at most every few seconds (a screen reader would drown).
  const announcement = isOver(round.state)
    ? `Round ${round.state}: ${formatInteger(round.iteration)} of ${formatInteger(round.iterations)} iterations, ${formatInteger(round.crawled)} pages crawled.`
    : `Round ${round.state}: iteration ${formatInteger(round.iteration)} of ${formatInteger(round.iterations)}, ${formatInteger(round.crawled)} pages crawled.`;
  const now = Date.now();
  if (announcement !== lastAnnounced.text && (round.state !== lastAnnounced.state || now - lastAnnounced.at >= ANNOUNCE_EVERY_MS)) {
    $('round-live').textContent = announcement;
    lastAnnounced = { text: announcement, state: round.state, at: now };
  }
  renderHistoryTable(round.history ?? []);
  drawChart(round);
}

function renderElapsed(round) {
  const end = round.finishedAt ?? (isOver(round.state) ? undefined : Date.now());
  $('stat-elapsed').textContent = end && round.startedAt ? formatDuration(end - round.startedAt) : '–';
}

function renderHistoryTable(history) {
  const rows = history.map((step) =>
    h('tr', {},
      h('th', { scope: 'row', text: formatInteger(step.iteration) }),
      h('td', { class: 'num', text: formatInteger(step.crawled) }),
      h('td', { class: 'num', text: step.iteration > 0 ? formatNumber(step.change) : '–' }),
      h('td', { class: 'num', text: formatNumber(step.l1ToTruth) }),
      h('td', { class: 'num', text: formatDuration(step.ms) })));
  /** @type {HTMLTableElement} */ ($('history-table')).tBodies[0].replaceChildren(...rows);
}

/** The two series of a round: points (iteration, value) with a positive value (log scale). */
function chartSeries(round) {
  const history = round.history ?? [];
  return [
    { name: 'change', label: 'Change', points: history.filter((s) => s.iteration > 0 && s.change > 0).map((s) => [s.iteration, s.change]) },
    { name: 'truth', label: 'Error to truth', points: history.filter((s) => s.l1ToTruth > 0).map((s) => [s.iteration, s.l1ToTruth]) },
  ];
}

/** Splits points into runs of consecutive iterations. */
function consecutiveRuns(points) {
  const runs = [];
  for (const point of points) {
    const run = runs.at(-1);
    if (run && run.at(-1)[0] === point[0] - 1) run.push(point);
    else runs.push([point]);
  }
  return runs;
}

/** 3, 5, 7–12 (ranges of consecutive iterations). */
function formatIterationList(iterations) {
  const runs = consecutiveRuns(iterations.map((i) => [i]));
  return runs.map((run) => (run.length > 1 ? `${run[0][0]}–${run.at(-1)[0]}` : String(run[0][0]))).join(', ');
}

/** Integer ticks 0…max, at most about `count` of them. */
function iterationTicks(max, count) {
  const raw = Math.max(1, max / count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks = [];
  for (let t = 0; t <= max + 1e-9; t += step) ticks.push(Math.round(t));
  return ticks;
}

/**
 * Draws the round's chart as inline SVG: L1 distances per iteration on a log scale (the change
 * falls by orders of magnitude while the error to the truth barely moves), decade grid lines,
 * labelled axes, one line and marker shape per series, a title on every point.
 */
function drawChart(shown) {
  const container = $('round-chart');
  // Before any round: empty axes over ten iterations, and what to do.
  const round = shown ?? { state: 'none', iterations: 10, history: [] };
  const width = Math.max(280, Math.round(container.clientWidth || 600));
  const height = width < 480 ? 220 : 280;
  const margin = { top: 14, right: 18, bottom: 44, left: width < 480 ? 54 : 64 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const series = chartSeries(round);
  const hasTruth = series[1].points.length > 0 || round.l1ToTruth !== undefined;
  $('legend-truth').hidden = !hasTruth;
  const values = series.flatMap((s) => s.points.map((p) => p[1]));
  const maxIteration = Math.max(1, round.iterations ?? 1);

  const chart = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'chart-title chart-desc', class: 'chart-svg' });
  const latest = (round.history ?? []).at(-1);
  chart.append(
    svg('title', { id: 'chart-title' }, 'L1 distances per iteration'),
    svg('desc', { id: 'chart-desc' },
      latest
        ? `Iteration ${latest.iteration} of ${maxIteration}: change ${latest.iteration > 0 ? formatNumber(latest.change) : 'not yet'}${latest.l1ToTruth !== undefined ? `, error to the true PageRank ${formatNumber(latest.l1ToTruth)}` : ''}.`
        : 'No iteration yet.'),
  );

  const x = (iteration) => margin.left + (iteration / maxIteration) * plotWidth;
  let low = -3;
  let high = 0;
  if (values.length > 0) {
    low = Math.floor(Math.log10(Math.min(...values)));
    high = Math.ceil(Math.log10(Math.max(...values)));
    if (high <= low) high = low + 1;
  }
  const y = (value) => margin.top + (1 - (Math.log10(value) - low) / (high - low)) * plotHeight;

  // Grid and y ticks: every decade, and 2 and 5 between when there are few decades.
  const grid = svg('g', { class: 'chart-grid' });
  const yLabels = svg('g', { class: 'chart-tick-labels', 'text-anchor': 'end' });
  const decades = high - low;
  const everyNth = Math.ceil(decades / Math.max(2, Math.floor(plotHeight / 28)));
  for (let exponent = low; exponent <= high; exponent++) {
    const labelled = (high - exponent) % everyNth === 0;
    const py = y(10 ** exponent);
    grid.append(svg('line', { x1: margin.left, x2: margin.left + plotWidth, y1: py, y2: py, class: 'grid-major' }));
    if (labelled) yLabels.append(svg('text', { x: margin.left - 8, y: py, dy: '0.35em' }, formatPowerOfTen(exponent)));
    if (decades <= 2 && exponent < high) {
      for (const multiple of [2, 5]) {
        const my = y(multiple * 10 ** exponent);
        grid.append(svg('line', { x1: margin.left, x2: margin.left + plotWidth, y1: my, y2: my, class: 'grid-minor' }));
        yLabels.append(svg('text', { x: margin.left - 8, y: my, dy: '0.35em', class: 'minor' }, formatPowerOfTen(exponent, multiple)));
      }
    }
  }
  const xLabels = svg('g', { class: 'chart-tick-labels', 'text-anchor': 'middle' });
  for (const tick of iterationTicks(maxIteration, Math.max(2, Math.floor(plotWidth / 56)))) {
    const px = x(tick);
    grid.append(svg('line', { x1: px, x2: px, y1: margin.top + plotHeight, y2: margin.top + plotHeight + 5, class: 'tick' }));
    xLabels.append(svg('text', { x: px, y: margin.top + plotHeight + 20 }, String(tick)));
  }
  chart.append(grid, yLabels, xLabels);

  // Axes and their titles.
  chart.append(
    svg('line', { x1: margin.left, x2: margin.left, y1: margin.top, y2: margin.top + plotHeight, class: 'axis' }),
    svg('line', { x1: margin.left, x2: margin.left + plotWidth, y1: margin.top + plotHeight, y2: margin.top + plotHeight, class: 'axis' }),
    svg('text', { x: margin.left + plotWidth / 2, y: height - 6, 'text-anchor': 'middle', class: 'axis-title' }, 'iteration'),
    svg('text', { transform: `translate(14 ${margin.top + plotHeight / 2}) rotate(-90)`, 'text-anchor': 'middle', class: 'axis-title' }, 'L1 distance'),
  );

  for (const { name, label, points } of series) {
    if (points.length === 0) continue;
    const group = svg('g', { class: `series series-${name}` });
    // One line per run of consecutive iterations: a gap (a zero change) is not bridged.
    for (const run of consecutiveRuns(points)) {
      if (run.length > 1) group.append(svg('polyline', { points: run.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '), class: 'series-line' }));
    }
    // Markers only while they stay apart; a long round is a line.
    if (plotWidth / maxIteration >= 6) {
      for (const [i, v] of points) {
        const tip = svg('title', {}, `iteration ${i}: ${label.toLowerCase()} ${formatNumber(v)}`);
        group.append(name === 'change'
          ? svg('circle', { cx: x(i), cy: y(v), r: 4, class: 'series-marker' }, tip)
          : svg('rect', { x: x(i) - 3.5, y: y(v) - 3.5, width: 7, height: 7, class: 'series-marker' }, tip));
      }
    }
    chart.append(group);
  }

  const unchanged = (round.history ?? []).filter((s) => s.iteration > 0 && s.change === 0).map((s) => s.iteration);
  $('chart-note').textContent = unchanged.length > 0
    ? `A change of 0 cannot be drawn on a log scale; the estimate did not change at iteration${unchanged.length > 1 ? 's' : ''} ${formatIterationList(unchanged)}.`
    : '';

  if (values.length === 0) {
    chart.append(svg('text', { x: margin.left + plotWidth / 2, y: margin.top + plotHeight / 2, 'text-anchor': 'middle', class: 'chart-empty' },
      !shown ? 'No round yet: start one with the form above.' : isOver(round.state) ? 'This round recorded no iteration.' : 'Waiting for the first iteration…'));
  }
  container.replaceChildren(chart);
}

// The chart is drawn at the width it has: redraw when that changes.
new ResizeObserver(() => {
  if (!$('dashboard').hidden) drawChart(shownRound);
}).observe($('round-chart'));

async function loadRounds() {
  const { body } = await api('/rounds');
  renderRounds(body.rounds ?? []);
}

function renderRounds(rounds) {
  $('rounds-empty').hidden = rounds.length > 0;
  $('rounds-table').closest('.table-scroll').hidden = rounds.length === 0;
  const rows = rounds.map((round) => {
    const last = (round.history ?? []).at(-1);
    return h('tr', {},
      h('td', {}, h('span', { text: formatDateTime(round.startedAt) }), h('br'), h('code', { class: 'small muted', text: round.id })),
      h('td', { text: String(round.selector).toUpperCase() }),
      h('td', { class: 'num', text: `${formatInteger(round.iteration)} / ${formatInteger(round.iterations)}` }),
      h('td', { class: 'num', text: formatInteger(round.crawled) }),
      h('td', { class: 'num', text: last && last.iteration > 0 ? formatNumber(round.change) : '–' }),
      h('td', { class: 'num', text: formatNumber(round.l1ToTruth) }),
      h('td', { class: 'num', text: round.finishedAt ? formatDuration(round.finishedAt - round.startedAt) : '–' }),
      h('td', {}, stateBadge(round.state), round.version ? h('span', { class: 'small muted', title: 'the rank version this round wrote', text: ` rank v${round.version}` }) : null),
      h('td', {}, h('button', {
        type: 'button',
        class: 'button button-quiet button-small',
        'aria-label': `Show round ${round.id} in the chart`,
        onclick: () => {
          showRound(round, { watch: !isOver(round.state) });
          // Keyboard users land where the round now shows, not back at the table.
          $('round-title').focus();
        },
      }, 'Show')));
  });
  /** @type {HTMLTableElement} */ ($('rounds-table')).tBodies[0].replaceChildren(...rows);
}

// ---------------------------------------------------------------------------------------------
// Divergence: local PageRank against the estimated global PageRank

async function loadDivergence() {
  const limit = /** @type {HTMLSelectElement} */ ($('divergence-limit')).value;
  const { body } = await api(`/pages/divergence?limit=${encodeURIComponent(limit)}`);
  renderDivergence(body.pages ?? []);
}

$('divergence-limit').addEventListener('change', () => void loadDivergence().catch((error) => report($('dashboard-message'), error)));

/** A URL as people read it: host dropped when it is the site's own, path kept. */
function displayUrl(url) {
  try {
    const parsed = new URL(url);
    return { host: parsed.host, path: decodeURIComponent(parsed.pathname + parsed.search) };
  } catch {
    return { host: '', path: url };
  }
}

function renderDivergence(pages) {
  $('divergence-empty').hidden = pages.length > 0;
  $('divergence-table').closest('.table-scroll').hidden = pages.length === 0;
  const rows = pages.map((page, i) => {
    const { host, path } = displayUrl(page.url);
    // JSON has no Infinity: a page with no local PageRank comes back with a null ratio.
    const ratio = typeof page.ratio === 'number' ? page.ratio : Infinity;
    const direction = ratio > 1 ? 'up' : ratio < 1 ? 'down' : 'same';
    return h('tr', {},
      h('td', { class: 'num muted rank-cell', text: String(i + 1) }),
      h('td', { class: 'url-cell' }, h('a', { href: page.url, rel: 'noopener noreferrer', title: page.url }, h('span', { class: 'url-host', text: host }), h('span', { class: 'url-path', text: path }))),
      h('td', { class: 'num', 'data-label': 'Local', text: formatNumber(page.localPageRank) }),
      h('td', { class: 'num', 'data-label': 'Global', text: formatNumber(page.globalPageRank) }),
      h('td', { class: `num ratio ratio-${direction}`, 'data-label': 'Ratio' },
        h('span', { 'aria-hidden': 'true', class: 'ratio-arrow', text: direction === 'up' ? '▲ ' : direction === 'down' ? '▼ ' : '' }),
        `×${formatRatio(ratio)}`,
        h('span', { class: 'visually-hidden', text: direction === 'up' ? ' (higher globally)' : direction === 'down' ? ' (lower globally)' : '' })));
  });
  /** @type {HTMLTableElement} */ ($('divergence-table')).tBodies[0].replaceChildren(...rows);
}

// ---------------------------------------------------------------------------------------------
// Crawl and re-crawl jobs

/** Jobs shown in the jobs table, by id. */
const jobs = new Map();
let jobPollTimer;

function stopJobPolling() {
  clearTimeout(jobPollTimer);
  jobPollTimer = undefined;
}

function renderJobs(list) {
  for (const job of list) if (job.kind !== 'round') jobs.set(job.id, job);
  drawJobs();
  scheduleJobPoll();
}

function jobResult(job) {
  if (job.error) return job.error;
  if (job.recrawl) {
    const r = job.recrawl;
    return `${formatInteger(r.visited)} visited: ${formatInteger(r.changed)} changed, ${formatInteger(r.unchanged)} unchanged, ${formatInteger(r.gone)} gone, ${formatInteger(r.errors)} errors; ${formatInteger(r.newPages)} new URLs`;
  }
  if (job.crawl) {
    const c = job.crawl;
    return `${formatInteger(c.fetchedThisRun)} fetched, ${formatInteger(c.stored)} stored in all, frontier ${formatInteger(c.frontier)} (${c.stoppedBecause})`;
  }
  if (job.progress) return `${formatInteger(Number(job.progress.stored))} stored, frontier ${formatInteger(Number(job.progress.frontier))}`;
  return job.state === 'queued' ? 'waiting for the job before it' : '';
}

function drawJobs() {
  const sorted = [...jobs.values()].sort((a, b) => b.queuedAt - a.queuedAt);
  const rows = sorted.map((job) =>
    h('tr', { 'data-job': job.id },
      h('td', {}, h('span', { class: 'job-kind', text: job.kind === 'recrawl' ? 'Re-crawl' : 'Crawl' }), ' ', h('span', { class: 'small muted', text: formatDateTime(job.queuedAt) })),
      h('td', {}, stateBadge(job.state), job.finishedAt && job.startedAt ? h('span', { class: 'small muted', text: ` ${formatDuration(job.finishedAt - job.startedAt)}` }) : null),
      h('td', { class: 'small', text: jobResult(job) })));
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: 3, class: 'muted', text: 'No crawl or re-crawl since the server started.' })));
  /** @type {HTMLTableElement} */ ($('jobs-table')).tBodies[0].replaceChildren(...rows);
}

/** Polls the jobs still queued or running, one request each, until they end (no stream for jobs). */
function scheduleJobPoll() {
  if (jobPollTimer !== undefined) return;
  const active = [...jobs.values()].filter((job) => !isOver(job.state));
  if (active.length === 0) return;
  jobPollTimer = setTimeout(async () => {
    let ended = false;
    try {
      for (const job of active) {
        const { body } = await api(`/jobs/${encodeURIComponent(job.id)}`);
        jobs.set(job.id, body);
        if (isOver(body.state)) {
          ended = true;
          $('jobs-live').textContent = `${body.kind === 'recrawl' ? 'Re-crawl' : 'Crawl'} ${body.state}. ${jobResult(body)}`;
        }
      }
      drawJobs();
    } catch (error) {
      if (error instanceof Unauthorized) return;
      report($('jobs-message'), error);
    } finally {
      jobPollTimer = undefined;
    }
    if (ended) {
      // New pages, a new index generation, a new local PageRank: show them.
      await refreshStatus();
      await loadDivergence().catch((error) => report($('dashboard-message'), error));
    } else if (token) scheduleJobPoll();
  }, JOB_POLL_MS);
}

async function startJob(path, body, button) {
  const message = $('jobs-message');
  message.textContent = '';
  button.disabled = true;
  try {
    const { status, body: answer } = await api(path, { method: 'POST', body });
    if (status === 409) {
      message.textContent = answer.message ?? 'A job of that kind is already queued or running.';
      return;
    }
    const kind = path.startsWith('/recrawls') || path.endsWith('recrawl/run') ? 'recrawl' : 'crawl';
    jobs.set(answer.id, { id: answer.id, kind, state: 'queued', queuedAt: Date.now() });
    drawJobs();
    scheduleJobPoll();
    $('jobs-live').textContent = `${kind === 'recrawl' ? 'Re-crawl' : 'Crawl'} queued.`;
  } catch (error) {
    report(message, error);
  } finally {
    button.disabled = false;
  }
}

$('crawl-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('crawl-max-pages'));
  let body = {};
  if (input.value.trim() !== '') {
    try {
      body = { maxPages: readInteger(input, 'Crawl up to') };
    } catch (invalid) {
      $('jobs-message').textContent = invalid.message;
      return;
    }
  }
  void startJob('/crawls', body, /** @type {HTMLButtonElement} */ ($('start-crawl')));
});

$('recrawl-form').addEventListener('submit', (event) => {
  event.preventDefault();
  let budget;
  try {
    budget = readInteger($('recrawl-budget'), 'Re-crawl visits');
  } catch (invalid) {
    $('jobs-message').textContent = invalid.message;
    return;
  }
  const policy = /** @type {HTMLSelectElement} */ ($('recrawl-policy')).value;
  void startJob('/recrawls', { budget, policy }, /** @type {HTMLButtonElement} */ ($('start-recrawl')));
});

// ---------------------------------------------------------------------------------------------
// Schedules

const SCHEDULE_NAMES = { recrawl: 'Re-crawl', estimate: 'Estimation round' };

function renderSchedules(schedules) {
  const rows = schedules.map((schedule) => {
    const title = SCHEDULE_NAMES[schedule.name] ?? schedule.name;
    return h('tr', {},
      h('th', { scope: 'row', text: title }),
      h('td', {}, h('code', { class: 'cron', text: schedule.cron })),
      h('td', {}, schedule.nextRun ? [h('span', { text: formatDateTime(schedule.nextRun) }), h('br'), h('span', { class: 'small muted', text: formatRelative(schedule.nextRun) })] : '–'),
      h('td', { text: schedule.lastFired ? formatDateTime(schedule.lastFired) : 'never' }),
      h('td', {}, schedule.lastJob ? h('code', { class: 'small', text: schedule.lastJob }) : '–'),
      h('td', { class: 'num', text: formatInteger(schedule.skipped ?? 0) }),
      h('td', {}, h('button', { type: 'button', class: 'button button-small', 'aria-label': `Run the ${title.toLowerCase()} schedule now`, onclick: (event) => void runSchedule(schedule.name, event.currentTarget) }, 'Run now')));
  });
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: 7, class: 'muted', text: 'No schedules configured (schedules.recrawl, schedules.estimate).' })));
  /** @type {HTMLTableElement} */ ($('schedules-table')).tBodies[0].replaceChildren(...rows);
}

async function runSchedule(name, button) {
  const message = $('schedules-message');
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
      jobs.set(body.id, { id: body.id, kind: name === 'recrawl' ? 'recrawl' : 'crawl', state: 'queued', queuedAt: Date.now() });
      drawJobs();
      scheduleJobPoll();
    }
  } catch (error) {
    report(message, error);
  } finally {
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------------------------------
// The site's name (public, no token): the page itself is generic.

async function loadSiteName() {
  try {
    const response = await fetch('/api/info');
    if (!response.ok) return;
    const { name } = await response.json();
    if (typeof name !== 'string' || name.trim() === '') return;
    $('brand-name').textContent = `${name} search`;
    $('brand-initial').textContent = name.trim().charAt(0).toUpperCase();
    document.title = `Admin · ${name} search`;
  } catch {
    // An older server or a network hiccup: the generic name stays.
  }
}

void loadSiteName();

// ---------------------------------------------------------------------------------------------
// Start: a token kept from earlier in this tab signs in at once.

if (token) {
  signIn(token, { focus: false }).catch((error) => {
    if (!(error instanceof Unauthorized)) showSignIn(`Cannot reach the server: ${error.message}`);
  });
} else {
  showSignIn();
}
