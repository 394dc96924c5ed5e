// @ts-check
/**
 * One result. Page titles, URLs and hosts are plain text (textContent only); the one HTML
 * fragment, the snippet, goes through insertTrustedSnippetHtml.
 */
import { h } from '../lib/dom.js';
import { formatDate } from '../lib/format.js';
import { explanation } from './explain.js';
import { languageName } from './languages.js';

/**
 * @typedef {{ id: number, url: string, title: string, snippet: string, host: string, score: number,
 *   textScore: number, globalPageRank: number, localPageRank: number,
 *   lang?: string, type?: string, section?: string, lastModified?: string,
 *   duplicates?: string[], alternates?: Array<{ url: string, lang: string }>,
 *   sectionHeading?: string, sectionUrl?: string, recommended?: boolean,
 *   explain?: Record<string, number | string> }} Hit
 */

/** @param {Hit} hit @param {number} position  1-based, over all pages of results */
export function resultItem(hit, position) {
  const snippet = h('p', { class: 'result-snippet' });
  insertTrustedSnippetHtml(snippet, hit.snippet);
  const hitLang = hit.lang && hit.lang !== 'und' ? hit.lang : false;
  return h('li', { class: hit.recommended ? 'result result-recommended' : 'result' },
    h('article', { lang: hitLang },
      hit.recommended ? h('p', { class: 'recommended-badge' }, 'Recommended') : null,
      h('p', { class: 'result-source' },
        h('span', { class: 'result-host' }, hit.host),
        h('cite', { class: 'result-url' }, hit.url)),
      h('h2', { class: 'result-title' }, h('a', { href: hit.url, 'data-result': String(hit.id), 'data-position': String(position) }, hit.title || hit.url)),
      hit.sectionHeading && hit.sectionUrl
        ? h('p', { class: 'result-section' }, h('span', { 'aria-hidden': 'true' }, '§ '), h('a', { href: hit.sectionUrl, class: 'section-link', 'data-result': String(hit.id), 'data-position': String(position) }, hit.sectionHeading))
        : null,
      snippet,
      facts(hit),
      explanation(hit)));
}

/** Type, language, date, section, other languages and copies: one line under the snippet. @param {Hit} hit */
function facts(hit) {
  const parts = [];
  if (hit.type && hit.type !== 'html') parts.push(h('span', { class: 'result-type' }, hit.type.toUpperCase()));
  if (hit.lang && hit.lang !== 'und') parts.push(h('span', { class: 'result-lang' }, languageName(hit.lang)));
  const date = formatDate(hit.lastModified);
  if (date) parts.push(h('time', { datetime: hit.lastModified ?? '' }, date));
  if (hit.section) parts.push(h('span', { class: 'result-section-name' }, hit.section));
  if (hit.alternates && hit.alternates.length > 0) {
    parts.push(h('span', { class: 'also-in' }, 'also in: ',
      hit.alternates.flatMap((alternate, i) => [i > 0 ? ', ' : '', h('a', { href: alternate.url, hreflang: alternate.lang, lang: alternate.lang, title: languageName(alternate.lang) }, alternate.lang)])));
  }
  if (hit.duplicates && hit.duplicates.length > 0) {
    const count = hit.duplicates.length;
    parts.push(h('span', { class: 'copies', title: hit.duplicates.join('\n') }, `${count} ${count === 1 ? 'copy' : 'copies'} elsewhere on the site`));
  }
  if (parts.length === 0) return null;
  return h('p', { class: 'result-facts' }, parts.flatMap((part, i) => (i > 0 ? [h('span', { class: 'sep', 'aria-hidden': 'true' }, ' · '), part] : [part])));
}

/**
 * Puts a snippet from the search API into `target`.
 *
 * Trust decision: the API builds each snippet from page text by HTML-escaping all of it and
 * adding only <mark> around the matched words (indexer/text-index/snippet.ts), so the snippet is
 * the one piece of the answer read as HTML. As a second line of defence it is parsed in an inert
 * <template> (nothing in it runs or loads) and only its text and <mark> elements are copied; any
 * other element is reduced to its text.
 * @param {HTMLElement} target
 * @param {string} snippetHtml
 */
function insertTrustedSnippetHtml(target, snippetHtml) {
  const template = document.createElement('template');
  template.innerHTML = snippetHtml;
  target.replaceChildren(...textAndMarks(template.content));
}

/** @param {Node} parent @returns {Node[]} */
function textAndMarks(parent) {
  return Array.from(parent.childNodes, (node) => {
    if (node.nodeName === 'MARK') return h('mark', {}, textAndMarks(node));
    return document.createTextNode(node.textContent ?? '');
  });
}
