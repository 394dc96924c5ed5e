// @ts-check
/**
 * Filter chips with counts, from the API's facets. Each chip is a link to the same search with
 * that value added or removed (the state stays in the URL); "All languages" drops the language
 * filter. A dimension with a single value and no filter on it says nothing and is not shown.
 */
import { byId, h } from '../lib/dom.js';
import { FILTERS, pageLink } from './state.js';
import { languageName } from './languages.js';

/** @typedef {import('./state.js').SearchState} SearchState */
/** @typedef {import('./state.js').FilterName} FilterName */
/** @typedef {Record<string, Record<string, number>>} Facets */

/** @type {Record<FilterName, string>} */
const TITLES = { lang: 'Language', section: 'Section', type: 'Type', host: 'Site' };

/** @param {FilterName} name @param {string} value */
function chipLabel(name, value) {
  if (name === 'lang') return languageName(value);
  if (name === 'type') return value.toUpperCase();
  return value;
}

/**
 * @param {SearchState} state
 * @param {FilterName} name
 * @param {string} value
 */
function toggled(state, name, value) {
  const current = state.filters?.[name] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return { ...state, page: 1, filters: { ...state.filters, [name]: next }, allLanguages: name === 'lang' && next.length === 0 ? true : state.allLanguages };
}

/** @param {SearchState} state @param {Facets | undefined} facets */
export function renderFilters(state, facets) {
  const container = byId('filters');
  const groups = [];
  for (const name of FILTERS) {
    const counts = facets?.[name] ?? {};
    const selected = state.filters?.[name] ?? [];
    const values = Object.keys(counts);
    for (const value of selected) if (!values.includes(value)) values.push(value);
    if (values.length < 2 && selected.length === 0) continue;
    const chips = values.map((value) => {
      const on = selected.includes(value);
      return h('li', {}, pageLink(toggled(state, name, value), [chipLabel(name, value), ' ', h('span', { class: 'chip-count', text: String(counts[value] ?? 0) })], {
        class: on ? 'chip chip-on' : 'chip',
        'aria-current': on ? 'true' : false,
        'aria-label': `${chipLabel(name, value)}: ${counts[value] ?? 0} ${counts[value] === 1 ? 'result' : 'results'}${on ? ', filter on; remove it' : ''}`,
        lang: name === 'lang' && value !== 'und' ? value : false,
      }));
    });
    if (name === 'lang') {
      const all = selected.length === 0;
      chips.unshift(h('li', {}, pageLink({ ...state, page: 1, filters: { ...state.filters, lang: [] }, allLanguages: true }, 'All languages', {
        class: all ? 'chip chip-on' : 'chip',
        'aria-current': all ? 'true' : false,
        id: 'all-languages',
      })));
    }
    groups.push(h('div', { class: 'filter-group', role: 'group', 'aria-labelledby': `filter-title-${name}` },
      h('span', { class: 'filter-title', id: `filter-title-${name}` }, TITLES[name]),
      h('ul', { class: 'chips' }, chips)));
  }
  container.replaceChildren(...groups);
  container.hidden = groups.length === 0;
}
