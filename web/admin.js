// @ts-check
/**
 * The admin page: sign in with the admin token, start and watch estimation rounds, start crawls
 * and re-crawls, see the status, the schedules and where the global estimate departs from the
 * local PageRank. Plain DOM, no framework; every server string goes in as text, never as HTML.
 * Each panel is a module under admin/; this one signs in and out and wires them together.
 */
import { byId, byIdAs } from './lib/dom.js';
import { Unauthorized, api, clearPageError, currentToken, forgetToken, keepToken, onUnauthorized, reportOnPage, useToken } from './admin/api.js';
import { isOver, messageOf, onJobEnded } from './admin/common.js';
import { initAnalytics, loadAnalytics } from './admin/analytics.js';
import { initDivergence, loadDivergence } from './admin/divergence.js';
import { initResultControl, loadRemoved } from './admin/result-control.js';
import { initSearchSettings, loadSearchSettings } from './admin/search-settings.js';
import { initJobForms, stopJobPolling } from './admin/jobs.js';
import { drawChart } from './admin/round-chart.js';
import { forgetShownRound, initRoundForm, showRound, shownRoundOf, stopWatching } from './admin/rounds.js';
import { loadRounds } from './admin/rounds-table.js';
import { refreshStatus, renderStatus } from './admin/status.js';

// The admin API allows 60 requests a minute per route: status every 20 s.
const STATUS_REFRESH_MS = 20_000;

/** @type {ReturnType<typeof setInterval> | undefined} */
let statusTimer;

function showSignIn(error = '') {
  stopWatching();
  stopJobPolling();
  clearInterval(statusTimer);
  byId('dashboard').hidden = true;
  byId('sign-out').hidden = true;
  byId('sign-in').hidden = false;
  byId('sign-in-error').textContent = error;
  byId('token').setAttribute('aria-invalid', error ? 'true' : 'false');
  byId('token').focus();
}

function signOut(reason = '') {
  forgetToken();
  forgetShownRound();
  showSignIn(reason);
}

/** @param {string} candidate @param {{ focus?: boolean }} [options] */
async function signIn(candidate, { focus = true } = {}) {
  useToken(candidate);
  const { body: status } = await api('/status');
  keepToken();
  byId('sign-in').hidden = true;
  byIdAs('token', HTMLInputElement).value = '';
  byId('dashboard').hidden = false;
  byId('sign-out').hidden = false;
  if (focus) byId('dashboard-title').focus();
  clearPageError();
  renderStatus(status);
  const current = status.lastRound;
  if (current) showRound(current, { watch: !isOver(current.state) });
  else drawChart(null);
  await Promise.all([loadRounds(), loadDivergence(), loadAnalytics(), loadSearchSettings(), loadRemoved()]).catch(reportOnPage);
  clearInterval(statusTimer);
  statusTimer = setInterval(() => {
    if (document.visibilityState === 'visible') void refreshStatus();
  }, STATUS_REFRESH_MS);
}

byId('sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const candidate = byIdAs('token', HTMLInputElement).value.trim();
  if (!candidate) {
    byId('sign-in-error').textContent = 'Enter the admin token.';
    byId('token').setAttribute('aria-invalid', 'true');
    return;
  }
  byId('sign-in-error').textContent = '';
  try {
    await signIn(candidate);
  } catch (error) {
    if (!(error instanceof Unauthorized)) {
      useToken('');
      byId('sign-in-error').textContent = `Cannot reach the server: ${messageOf(error)}`;
    }
  }
});

byId('sign-out').addEventListener('click', () => signOut());
byId('refresh-status').addEventListener('click', () => void refreshStatus());
onUnauthorized(signOut);
// A job or a round ended: new pages, a new index generation, new ranks.
onJobEnded(async () => {
  await refreshStatus();
  await Promise.all([loadRounds(), loadDivergence()]).catch(reportOnPage);
});
initRoundForm();
initJobForms();
initDivergence();
initAnalytics();
initSearchSettings();
initResultControl();

// The chart is drawn at the width it has: redraw when that changes.
new ResizeObserver(() => {
  if (!byId('dashboard').hidden) drawChart(shownRoundOf());
}).observe(byId('round-chart'));

/** The site's name (public, no token): the page itself is generic. */
async function loadSiteName() {
  try {
    const response = await fetch('/api/info');
    if (!response.ok) return;
    const { name } = await response.json();
    if (typeof name !== 'string' || name.trim() === '') return;
    byId('brand-name').textContent = `${name} search`;
    byId('brand-initial').textContent = name.trim().charAt(0).toUpperCase();
    document.title = `Admin · ${name} search`;
  } catch {
    // An older server or a network hiccup: the generic name stays.
  }
}

void loadSiteName();

// Start: a token kept from earlier in this tab signs in at once.
if (currentToken()) {
  signIn(currentToken(), { focus: false }).catch((error) => {
    if (!(error instanceof Unauthorized)) showSignIn(`Cannot reach the server: ${messageOf(error)}`);
  });
} else {
  showSignIn();
}
