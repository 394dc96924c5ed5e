// @ts-check
/**
 * One result. Page titles, URLs and hosts are plain text (textContent only); the one HTML
 * fragment, the snippet, goes through insertTrustedSnippetHtml.
 */
import { h } from '../lib/dom.js';
import { explanation } from './explain.js';

/**
 * @typedef {{ id: number, url: string, title: string, snippet: string, host: string, score: number,
 *   textScore: number, globalPageRank: number, localPageRank: number,
 *   explain?: Record<string, number | string> }} Hit
 */

/** @param {Hit} hit */
export function resultItem(hit) {
  const snippet = h('p', { class: 'result-snippet' });
  insertTrustedSnippetHtml(snippet, hit.snippet);
  return h('li', { class: 'result' },
    h('article', {},
      h('p', { class: 'result-source' },
        h('span', { class: 'result-host' }, hit.host),
        h('cite', { class: 'result-url' }, hit.url)),
      h('h2', { class: 'result-title' }, h('a', { href: hit.url }, hit.title || hit.url)),
      snippet,
      explanation(hit)));
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
