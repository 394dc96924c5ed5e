// @ts-check
/** "Why this rank?": the parts the engine combined, from the API's explain record. */
import { h } from '../lib/dom.js';
import { formatNumber } from '../lib/format.js';
import { RANK_DESCRIPTIONS } from './state.js';

/** @typedef {import('./result-item.js').Hit} Hit */

/** PageRank values are tiny: 6.94 × 10⁻⁴ reads better than 0.000694 or 6.94e-4. @param {number} value */
function formatRank(value) {
  if (!(value > 0)) return ['0'];
  const [mantissa, exponent] = value.toExponential(2).split('e');
  return [`${mantissa} × 10`, h('sup', {}, String(Number(exponent)).replace('-', '−'))];
}

/** @param {Hit} hit */
export function explanation(hit) {
  const explain = hit.explain ?? {};
  const weight = Number(explain.weight ?? 0);
  const blend = String(explain.blend ?? 'log-linear');
  const rank = String(explain.rank ?? 'blend');
  const text = Number(explain.textNormalised ?? 0);
  const link = Number(explain.linkPart ?? 0);
  const terms = String(explain.matchedTerms ?? '').trim();
  /** @type {Array<[string, Array<Node | string>]>} */
  const rows = [
    ['Text score', [formatNumber(hit.textScore), ` (${formatNumber(text)} of the best match)`]],
    ['Global PageRank estimate', [...formatRank(hit.globalPageRank), blend === 'log-linear' ? ` (${formatNumber(link)} on the site’s log scale)` : '']],
    ['Local PageRank', formatRank(hit.localPageRank)],
    ['Blend weight', [`${formatNumber(weight)} on global PageRank, ${blend}`]],
    ['Matched terms (stems)', [terms === '' ? '—' : terms]],
    ['Score', [formatNumber(hit.score)]],
  ];
  const list = h('dl', { class: 'why-parts' }, rows.map(([name, value]) => h('div', {}, h('dt', {}, name), h('dd', {}, value))));
  return h('details', { class: 'why' },
    h('summary', {}, 'Why this rank?'),
    h('div', { class: 'why-body' }, h('p', { class: 'why-formula' }, formula(rank, blend, weight, text, link, hit.score)), list));
}

/**
 * @param {string} rank @param {string} blend @param {number} weight
 * @param {number} text @param {number} link @param {number} score
 */
function formula(rank, blend, weight, text, link, score) {
  if (rank !== 'blend') return `Ordered by ${RANK_DESCRIPTIONS[rank] ?? rank}; the text decides only which pages match.`;
  if (blend === 'multiplicative') {
    return `Score = text ${formatNumber(text)} × (PageRank ÷ site mean)^${formatNumber(weight)} ${formatNumber(link)} = ${formatNumber(score)}`;
  }
  if (blend === 'prior') {
    return `Score = text score + ${formatNumber(weight)} × ln(PageRank ÷ site median) ${formatNumber(link)} = ${formatNumber(score)}`;
  }
  if (blend === 'saturating') {
    return `Score = ${formatNumber(1 - weight)} × text ${formatNumber(text)} + ${formatNumber(weight)} × PageRank ÷ (PageRank + site median) ${formatNumber(link)} = ${formatNumber(score)}`;
  }
  return `Score = ${formatNumber(1 - weight)} × text ${formatNumber(text)} + ${formatNumber(weight)} × global PageRank ${formatNumber(link)} = ${formatNumber(score)}`;
}
