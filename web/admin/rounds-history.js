// @ts-check
/**
 * The estimate over rounds: one point per finished round (rounds continue from the last one, so
 * the estimate should settle): the change since the last round's estimate and, on the demo web,
 * the error to the true PageRank, on a linear scale; the global pages in the supergraph under
 * each round's tick. A fresh round (started over) is marked.
 */
import { byId, svg } from '../lib/dom.js';
import { formatInteger, formatNumber } from '../lib/format.js';

/**
 * @typedef {{ id: string, finishedAt?: number, crawled: number, newPages: number, fresh: boolean,
 *   roundChange?: number, l1ToTruth?: number }} RoundPoint
 */

/**
 * Axis ticks from 0 to at least `max` at a round step (1, 2 or 5 × 10ⁿ), each label distinct;
 * 0 to 1 when every value is 0.
 * @param {number} max
 */
export function niceTicks(max) {
  if (!(max > 0)) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks = [];
  // Multiples of the step, rounded to its precision (no 0.30000000000000004).
  for (let i = 0; ticks.length === 0 || ticks[ticks.length - 1] < max; i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

/** @param {RoundPoint[]} rounds  oldest first, as the admin API's `history` */
export function drawRoundsHistory(rounds) {
  const container = byId('rounds-history');
  container.hidden = rounds.length === 0;
  if (rounds.length === 0) return container.replaceChildren();
  const width = Math.max(280, Math.round(container.clientWidth || 600));
  const height = 220;
  const margin = { top: 14, right: 18, bottom: 52, left: 60 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const series = [
    { name: 'truth', label: 'error to truth', points: rounds.map((r, i) => /** @type {[number, number | undefined]} */ ([i, r.l1ToTruth])) },
    { name: 'change', label: 'change since the last round', points: rounds.map((r, i) => /** @type {[number, number | undefined]} */ ([i, r.roundChange])) },
  ];
  const values = /** @type {number[]} */ (series.flatMap((s) => s.points.map((p) => p[1]).filter((v) => v !== undefined)));
  const ticks = niceTicks(Math.max(0, ...values));
  const top = ticks[ticks.length - 1];
  const inset = 24;
  /** @param {number} i */
  const x = (i) => margin.left + inset + (rounds.length === 1 ? (plotWidth - 2 * inset) / 2 : (i / (rounds.length - 1)) * (plotWidth - 2 * inset));
  /** @param {number} v */
  const y = (v) => margin.top + (1 - v / top) * plotHeight;

  const last = rounds[rounds.length - 1];
  const chart = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'rounds-history-title rounds-history-desc', class: 'chart-svg' },
    svg('title', { id: 'rounds-history-title' }, 'The estimate over rounds'),
    svg('desc', { id: 'rounds-history-desc' },
      `${rounds.length} finished round${rounds.length > 1 ? 's' : ''}; the last has ${formatInteger(last.crawled)} global pages in the supergraph` +
        `${last.l1ToTruth !== undefined ? `, error to the true PageRank ${formatNumber(last.l1ToTruth)}` : ''}.`));

  const grid = svg('g', { class: 'chart-grid' });
  const labels = svg('g', { class: 'chart-tick-labels' });
  for (const value of ticks) {
    grid.append(svg('line', { x1: margin.left, x2: margin.left + plotWidth, y1: y(value), y2: y(value), class: value === 0 ? 'axis' : 'grid-major' }));
    labels.append(svg('text', { x: margin.left - 8, y: y(value), dy: '0.35em', 'text-anchor': 'end' }, formatNumber(value)));
  }
  if (values.length > 0 && values.every((v) => v === 0)) {
    labels.append(svg('text', { x: margin.left + plotWidth / 2, y: margin.top + plotHeight / 2, 'text-anchor': 'middle', class: 'chart-empty' }, 'The estimate did not change between these rounds.'));
  }
  rounds.forEach((round, i) => {
    labels.append(
      svg('text', { x: x(i), y: margin.top + plotHeight + 18, 'text-anchor': 'middle' }, `${i + 1}${round.fresh ? '*' : ''}`),
      svg('text', { x: x(i), y: margin.top + plotHeight + 34, 'text-anchor': 'middle', class: 'minor' }, formatInteger(round.crawled)),
    );
  });
  chart.append(grid, labels,
    svg('text', { x: margin.left + plotWidth / 2, y: height - 4, 'text-anchor': 'middle', class: 'axis-title' }, 'round (* started over) · global pages in the supergraph'));

  for (const { name, label, points } of series) {
    const drawn = /** @type {Array<[number, number]>} */ (points.filter((p) => p[1] !== undefined));
    if (drawn.length === 0) continue;
    const group = svg('g', { class: `series series-${name}` });
    if (drawn.length > 1) group.append(svg('polyline', { points: drawn.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '), class: 'series-line' }));
    for (const [i, v] of drawn) {
      const tip = svg('title', {}, `round ${i + 1}: ${label} ${formatNumber(v)}`);
      group.append(name === 'change'
        ? svg('circle', { cx: x(i), cy: y(v), r: 4, class: 'series-marker' }, tip)
        : svg('rect', { x: x(i) - 3.5, y: y(v) - 3.5, width: 7, height: 7, class: 'series-marker' }, tip));
    }
    chart.append(group);
  }
  container.replaceChildren(chart);
}
