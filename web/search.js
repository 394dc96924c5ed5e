// @ts-check
/**
 * The search page. The query, the result page and the ranking live in the URL (search/state.js),
 * so a search can be shared and reloaded; every new search or page pushes a history entry, and
 * back/forward render the URL they return to. The parts of the page are modules under search/;
 * this one asks /api/search and wires the page's events.
 */
import { byId, byIdAs, h } from './lib/dom.js';
import { showSignIn } from './signin-form.js';
import { clearResults, setExamples, showApiError, showEmptyState, showMessage, showNetworkError, showNoResults, showQueryNotice } from './search/messages.js';
import { lastPageOf, renderPagination } from './search/pagination.js';
import { renderFilters } from './search/filters.js';
import { resultItem } from './search/result-item.js';
import { attachSuggestions } from './search/suggest-box.js';
import { PAGE_SIZE, RANK_DESCRIPTIONS, filterParams, pageLink, primarySubtag, referringPage, stateFromUrl, urlOf, visitorLanguages } from './search/state.js';

/** @typedef {import('./search/state.js').SearchState} SearchState */
/** @typedef {import('./search/result-item.js').Hit} Hit */
/** @typedef {{ total: number, page: number, size: number, tookMs: number, hits: Hit[], facets?: Record<string, Record<string, number>>, correctedQuery?: string, hl?: string, unmatchedTerms?: string[] }} SearchAnswer */
/** @typedef {{ name?: string, placeholder?: string, examples?: string[], outsidePages?: number }} SiteInfo */

const form = byIdAs('search-form', HTMLFormElement);
const queryInput = byIdAs('q', HTMLInputElement);
const rankSelect = byIdAs('rank', HTMLSelectElement);
const sortSelect = byIdAs('sort', HTMLSelectElement);
const statusLine = byId('status');
const resultsSection = byId('results');
const resultList = byIdAs('result-list', HTMLOListElement);
const pagination = byId('pagination');
const rankingDetails = byIdAs('ranking', HTMLDetailsElement);

/** @param {SearchState} state */
function navigate(state) {
  const url = urlOf(state);
  if (url !== location.pathname + location.search) history.pushState(null, '', url);
  return render(state);
}

/** The site's name, from /api/info ("Site search" until it answers). */
let siteTitle = 'Site search';

/** Names the page after the site it searches (the server knows it; the page is generic). */
async function loadSiteInfo() {
  try {
    const response = await fetch('/api/info');
    if (!response.ok) return;
    /** @type {SiteInfo} */
    const info = await response.json();
    showSiteWords(info);
    if (typeof info.name !== 'string' || info.name === '') return;
    siteTitle = `${info.name} search`;
    for (const element of document.querySelectorAll('[data-site-brand]')) element.textContent = siteTitle;
    for (const element of document.querySelectorAll('[data-site-label], [data-site-heading]')) element.textContent = `Search ${info.name}`;
    for (const element of document.querySelectorAll('[data-site-initial]')) element.textContent = info.name.trim().charAt(0).toUpperCase();
    if (!queryInput.value) document.title = siteTitle;
  } catch {
    // Offline or an older server: the generic names stay.
  }
}

/**
 * The site's own words: the placeholder and example queries its settings give (else its popular
 * queries; else none), and a ranking note true to what was crawled.
 * @param {SiteInfo} info
 */
function showSiteWords(info) {
  if (typeof info.placeholder === 'string' && info.placeholder !== '') queryInput.placeholder = info.placeholder;
  setExamples(Array.isArray(info.examples) ? info.examples : []);
  const outside = Number(info.outsidePages ?? 0);
  byId('ranking-note').textContent =
    outside > 0
      ? `Pages are ranked by how well they match your words, blended with an estimate of their global PageRank: how important each page is on the whole web, estimated from the links of this site and of ${outside.toLocaleString('en')} pages outside it.`
      : 'Pages are ranked by how well they match your words, blended with how important they are by the links between this site’s pages (no page outside the site has been crawled yet).';
  // The empty page shows the examples that just arrived.
  if (queryInput.value === '' && stateFromUrl(new URL(location.href)).q === '') showEmptyState(rankSelect.value);
}

/** The request in flight, cancelled when a newer one starts (its answer would be stale). */
let inFlight = /** @type {AbortController | null} */ (null);

/** @param {SearchState} state */
async function render(state) {
  queryInput.value = state.q;
  rankSelect.value = state.rank;
  // Another order than the default is shown, so the menu that chose it is too.
  if (state.rank !== 'blend') rankingDetails.open = true;
  showQueryNotice('', []);
  sortSelect.value = state.sort ?? 'relevance';
  inFlight?.abort();
  if (state.q === '') {
    document.title = siteTitle;
    renderFilters(state, undefined);
    showEmptyState(rankSelect.value);
    return;
  }
  document.title = `${state.q} – ${siteTitle}`;
  const controller = new AbortController();
  inFlight = controller;
  resultsSection.setAttribute('aria-busy', 'true');
  const params = new URLSearchParams({ q: state.q, page: String(state.page), size: String(PAGE_SIZE), rank: state.rank, explain: 'true' });
  for (const [name, value] of filterParams(state)) params.append(name, value);
  // Until the visitor's language on the site is known, the page they came from may tell it.
  const from = state.hl ? undefined : referringPage();
  if (from) params.set('from', from);
  let response;
  let body;
  try {
    response = await fetch(`/api/search?${params}`, { signal: controller.signal, headers: { accept: 'application/json' } });
    body = await response.json().catch(() => null);
  } catch {
    if (controller.signal.aborted) return;
    showNetworkError(() => void render(state));
    return;
  } finally {
    if (inFlight === controller) resultsSection.removeAttribute('aria-busy');
  }
  if (controller.signal.aborted) return;
  inFlight = null;
  if (response.status === 401) {
    showSignIn(body, () => void render(state));
    return;
  }
  if (!response.ok || body === null) {
    showApiError(response.status, body);
    return;
  }
  // The language the visitor chose on the site stays in the URL, before the browser's.
  const chosen = primarySubtag(body.hl);
  const known = chosen && !state.hl ? { ...state, hl: chosen } : state;
  const preselected = preselectLanguage(known, body);
  if (preselected) {
    history.replaceState(null, '', urlOf(preselected));
    return render(preselected);
  }
  if (known !== state) history.replaceState(null, '', urlOf(known));
  showResults(known, body);
}

/**
 * The visitor's own language, chosen for them when the results are in several languages and
 * theirs is one of them (once per search: "All languages" is one click, and stays in the URL).
 * Their own is the one they chose on the site (`hl`), else their browser's.
 * @param {SearchState} state @param {SearchAnswer} body
 * @returns {SearchState | null}
 */
function preselectLanguage(state, body) {
  if (state.allLanguages || (state.filters?.lang?.length ?? 0) > 0) return null;
  const languages = Object.keys(body.facets?.lang ?? {}).filter((lang) => lang !== 'und');
  if (languages.length < 2) return null;
  const mine = [...(state.hl ? [state.hl] : []), ...visitorLanguages()].find((lang) => languages.includes(lang));
  return mine ? { ...state, page: 1, filters: { ...state.filters, lang: [mine] } } : null;
}

/** @param {SearchState} state @param {SearchAnswer} result */
function showResults(state, result) {
  clearResults();
  const took = result.tookMs < 1 ? '< 1' : String(Math.round(result.tookMs));
  const lastPage = lastPageOf(result.total, result.size);
  const countText = `${result.total.toLocaleString('en')} ${result.total === 1 ? 'result' : 'results'} in ${took} ms`;
  const pageText = lastPage > 1 && state.page <= lastPage ? ` · page ${state.page} of ${lastPage}` : '';
  const rankText = state.rank === 'blend' ? '' : ` · ordered by ${RANK_DESCRIPTIONS[state.rank]}`;
  const correctedText = result.correctedQuery ? ` · Showing results for “${result.correctedQuery}”` : '';
  statusLine.textContent = countText + pageText + rankText + correctedText;
  showQueryNotice(result.correctedQuery ?? state.q, result.unmatchedTerms);
  renderFilters(state, result.facets);
  if (result.total === 0) {
    showNoResults(state);
    return;
  }
  if (result.hits.length === 0) {
    showMessage('no-results', [
      h('h2', {}, `Page ${state.page} is past the last page of results`),
      h('p', {}, 'Go to the ', pageLink({ ...state, page: 1 }, 'first page'), ' or the ', pageLink({ ...state, page: lastPage }, 'last page'), '.'),
    ]);
    return;
  }
  resultList.start = (result.page - 1) * result.size + 1;
  resultList.append(...result.hits.map((hit, i) => resultItem(hit, resultList.start + i)));
  renderPagination(state, lastPage);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  // A new query keeps the filters and the order; the page starts again at 1.
  const current = stateFromUrl(new URL(location.href));
  void navigate({ ...current, q: queryInput.value.trim(), page: 1, rank: rankSelect.value });
});

sortSelect.addEventListener('change', () => {
  const current = stateFromUrl(new URL(location.href));
  const q = queryInput.value.trim() || current.q;
  void navigate({ ...current, q, page: 1, sort: sortSelect.value });
});

rankSelect.addEventListener('change', () => {
  const current = stateFromUrl(new URL(location.href));
  // A new ordering starts again at the first page; the typed query counts even if not yet sent.
  const q = queryInput.value.trim() || current.q;
  void navigate({ ...current, q, page: 1, rank: rankSelect.value });
});

// Links inside the page (pagination, examples) change the URL without reloading the page.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[data-nav]') : null;
  if (!(link instanceof HTMLAnchorElement)) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  const fromPagination = pagination.contains(link);
  void navigate(stateFromUrl(new URL(link.href))).then(() => {
    if (!fromPagination) return;
    // A new page of results: start reading (and tabbing) from its top.
    resultsSection.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  });
});

// A click on a result (any button: a middle click opens it too) is told to the server as a beacon,
// which the browser delivers even as it leaves the page; the link itself stays the page's URL.
for (const type of ['click', 'auxclick']) {
  document.addEventListener(type, (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-result]') : null;
    if (!(link instanceof HTMLAnchorElement)) return;
    const q = stateFromUrl(new URL(location.href)).q;
    const position = Number(link.dataset.position);
    if (q === '' || !(position >= 1)) return;
    navigator.sendBeacon('/api/click', JSON.stringify({ q, url: link.href, position }));
  });
}

window.addEventListener('popstate', () => void render(stateFromUrl(new URL(location.href))));

// "/" anywhere but in a text field jumps to the search box, as on many search sites.
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select'))) return;
  event.preventDefault();
  queryInput.focus();
  queryInput.select();
});

attachSuggestions(queryInput, (text) => {
  const current = stateFromUrl(new URL(location.href));
  void navigate({ ...current, q: text.trim(), page: 1, rank: rankSelect.value });
});

void loadSiteInfo();
void render(stateFromUrl(new URL(location.href)));
