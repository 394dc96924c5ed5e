// @ts-check
/** Crawl and re-crawl jobs: the two forms, the jobs table, polling until a job ends. */
import { byId, byIdAs, h } from '../lib/dom.js';
import { formatDateTime, formatDuration, formatInteger } from '../lib/format.js';
import { Unauthorized, api, currentToken, report } from './api.js';
import { isOver, jobEnded, messageOf, readInteger, stateBadge } from './common.js';

/** @typedef {import('./types.js').Job} Job */

// The admin API allows 60 requests a minute per route: a job every 1.5 s.
const JOB_POLL_MS = 1500;

/** Jobs shown in the jobs table, by id. @type {Map<string, Job>} */
const jobs = new Map();
/** @type {ReturnType<typeof setTimeout> | undefined} */
let jobPollTimer;

export function stopJobPolling() {
  clearTimeout(jobPollTimer);
  jobPollTimer = undefined;
}

/** Shows the jobs the status lists (rounds have their own panel). @param {Job[]} list */
export function renderJobs(list) {
  for (const job of list) if (job.kind !== 'round') jobs.set(job.id, job);
  drawJobs();
  scheduleJobPoll();
}

/** Adds a job just submitted and follows it. @param {Job} job */
export function trackJob(job) {
  jobs.set(job.id, job);
  drawJobs();
  scheduleJobPoll();
}

/** A finished job whose index change waits for an admin. @param {Job} job */
const isHeld = (job) => job.state === 'done' && job.heldIndexChange !== undefined && !job.heldIndexChange.appliedAt && !job.heldIndexChange.discardedAt;

/** What became of a held index change, if the job had one. @param {Job} job */
function heldNote(job) {
  const held = job.heldIndexChange;
  if (!held) return '';
  if (held.appliedAt) return ` Index change applied by an admin (${formatInteger(held.removing)} pages removed).`;
  if (held.discardedAt) return ' Index change discarded by an admin: the index kept its pages.';
  return ` Index change held: it would remove ${formatInteger(held.removing)} of ${formatInteger(held.indexed)} pages; apply or discard it above.`;
}

/** @param {Job} job */
function jobResult(job) {
  if (job.error) return job.error;
  if (job.recrawl) {
    const r = job.recrawl;
    const failing = r.failing ? `, ${formatInteger(r.failing)} failing but kept until a later visit confirms it` : '';
    const rechecked = r.rechecked ? `; ${formatInteger(r.rechecked)} failed pages checked again, ${formatInteger(r.restored ?? 0)} back` : '';
    return `${formatInteger(r.visited)} visited: ${formatInteger(r.changed)} changed, ${formatInteger(r.unchanged)} unchanged, ${formatInteger(r.gone)} gone, ${formatInteger(r.errors)} errors${failing}${rechecked}; ${formatInteger(r.newPages)} new URLs.${heldNote(job)}`;
  }
  if (job.crawl) {
    const c = job.crawl;
    return `${formatInteger(c.fetchedThisRun)} fetched, ${formatInteger(c.stored)} stored in all, frontier ${formatInteger(c.frontier)} (${c.stoppedBecause}).${heldNote(job)}`;
  }
  if (job.progress) return `${formatInteger(Number(job.progress.stored))} stored, frontier ${formatInteger(Number(job.progress.frontier))}`;
  return job.state === 'queued' ? 'waiting for the job before it' : '';
}

/** @param {Job} job */
const kindName = (job) => (job.kind === 'recrawl' ? 'Re-crawl' : job.kind === 'import' ? 'Import' : 'Crawl');

function drawJobs() {
  const sorted = [...jobs.values()].sort((a, b) => b.queuedAt - a.queuedAt);
  const rows = sorted.map((job) =>
    h('tr', { 'data-job': job.id },
      h('td', {}, h('span', { class: 'job-kind', text: kindName(job) }), ' ', h('span', { class: 'small muted', text: formatDateTime(job.queuedAt) })),
      h('td', {}, stateBadge(isHeld(job) ? 'held' : job.state), job.finishedAt && job.startedAt ? h('span', { class: 'small muted', text: ` ${formatDuration(job.finishedAt - job.startedAt)}` }) : null),
      h('td', { class: 'small', text: jobResult(job) })));
  if (rows.length === 0) rows.push(h('tr', {}, h('td', { colspan: 3, class: 'muted', text: 'No crawl or re-crawl since the server started.' })));
  byIdAs('jobs-table', HTMLTableElement).tBodies[0].replaceChildren(...rows);
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
        /** @type {{ body: Job }} */
        const { body } = await api(`/jobs/${encodeURIComponent(job.id)}`);
        jobs.set(job.id, body);
        if (isOver(body.state)) {
          ended = true;
          byId('jobs-live').textContent = `${kindName(body)} ${body.state}. ${jobResult(body)}`;
        }
      }
      drawJobs();
    } catch (error) {
      if (error instanceof Unauthorized) return;
      report(byId('jobs-message'), error);
    } finally {
      jobPollTimer = undefined;
    }
    // New pages, a new index generation, a new local PageRank: show them.
    if (ended) await jobEnded();
    else if (currentToken()) scheduleJobPoll();
  }, JOB_POLL_MS);
}

/**
 * @param {string} path
 * @param {Record<string, unknown>} body
 * @param {HTMLButtonElement} button
 */
async function startJob(path, body, button) {
  const message = byId('jobs-message');
  message.textContent = '';
  button.disabled = true;
  try {
    const { status, body: answer } = await api(path, { method: 'POST', body });
    if (status === 409) {
      message.textContent = answer.message ?? 'A job of that kind is already queued or running.';
      return;
    }
    const kind = path.startsWith('/recrawls') ? 'recrawl' : 'crawl';
    trackJob({ id: answer.id, kind, state: 'queued', queuedAt: Date.now() });
    byId('jobs-live').textContent = `${kind === 'recrawl' ? 'Re-crawl' : 'Crawl'} queued.`;
  } catch (error) {
    report(message, error);
  } finally {
    button.disabled = false;
  }
}

export function initJobForms() {
  byId('crawl-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const input = byIdAs('crawl-max-pages', HTMLInputElement);
    /** @type {Record<string, unknown>} */
    let body = {};
    if (input.value.trim() !== '') {
      try {
        body = { maxPages: readInteger(input, 'Crawl up to') };
      } catch (invalid) {
        byId('jobs-message').textContent = messageOf(invalid);
        return;
      }
    }
    void startJob('/crawls', body, byIdAs('start-crawl', HTMLButtonElement));
  });

  byId('recrawl-form').addEventListener('submit', (event) => {
    event.preventDefault();
    let budget;
    try {
      budget = readInteger(byId('recrawl-budget'), 'Re-crawl visits');
    } catch (invalid) {
      byId('jobs-message').textContent = messageOf(invalid);
      return;
    }
    const policy = byIdAs('recrawl-policy', HTMLSelectElement).value;
    void startJob('/recrawls', { budget, policy }, byIdAs('start-recrawl', HTMLButtonElement));
  });
}
