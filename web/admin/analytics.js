// @ts-check
/** Search analytics: totals, searches per day as bars (with those that found nothing), top and zero-result queries. */
import { byId, byIdAs, h, svg } from '../lib/dom.js';
import { formatInteger } from '../lib/format.js';
import { api, reportOnPage } from './api.js';

/**
 * @typedef {{ days: number, searches: number, clicks: number, zeroResults: number, dropped: number,
 *   topQueries: Array<{ query: string, count: number, clickThrough: number }>,
 *   zeroResultQueries: Array<{ query: string, count: number, filtered?: number, filters?: Record<string, string[]> }>,
 *   perDay: Array<{ day: string, searches: number, zeroResults: number, clicks: number }> }} Summary
 */

export async function loadAnalytics() {
  const days = byIdAs('analytics-days', HTMLSelectElement).value;
  const { body } = await api(`/analytics?days=${encodeURIComponent(days)}`);
  renderAnalytics(body);
}

export function initAnalytics() {
  byId('analytics-days').addEventListener('change', () => void loadAnalytics().catch(reportOnPage));
}

const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 0 });

/** @param {Summary} summary */
function renderAnalytics(summary) {
  byId('analytics-searches').textContent = formatInteger(summary.searches);
  byId('analytics-zero').textContent = formatInteger(summary.zeroResults);
  byId('analytics-clicks').textContent = formatInteger(summary.clicks);
  drawDays(summary.perDay);
  const top = summary.topQueries.map((q) => h('tr', {}, h('td', { text: q.query }), h('td', { class: 'num', text: formatInteger(q.count) }), h('td', { class: 'num', text: percent.format(q.clickThrough) })));
  if (top.length === 0) top.push(h('tr', {}, h('td', { colspan: 3, class: 'muted', text: 'No searches in this period.' })));
  byIdAs('top-queries', HTMLTableElement).tBodies[0].replaceChildren(...top);
  const zero = summary.zeroResultQueries.map((q) => h('tr', {}, h('td', { text: q.query }), h('td', { class: 'num', text: formatInteger(q.count) }), h('td', { class: 'small', text: filtersText(q) })));
  if (zero.length === 0) zero.push(h('tr', {}, h('td', { colspan: 3, class: 'muted', text: 'Every search found something.' })));
  byIdAs('zero-queries', HTMLTableElement).tBodies[0].replaceChildren(...zero);
}

/**
 * The filters behind a zero-result query ("type: pdf; lang: de", and how many of its searches
 * had filters): the words may be on pages the filters left out. "none" when it had none.
 * @param {Summary['zeroResultQueries'][number]} q
 */
function filtersText(q) {
  if (!q.filters || !q.filtered) return 'none';
  const named = Object.entries(q.filters).map(([name, values]) => `${name}: ${values.join(', ')}`).join('; ');
  return q.filtered < q.count ? `${named} (${formatInteger(q.filtered)} of ${formatInteger(q.count)})` : named;
}

/** Bars per day: all searches, and in front of them those that found nothing. @param {Summary['perDay']} days */
function drawDays(days) {
  const container = byId('analytics-chart');
  const width = Math.max(280, Math.round(container.clientWidth || 600));
  const height = 180;
  const margin = { top: 10, right: 10, bottom: 28, left: 44 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const max = Math.max(1, ...days.map((d) => d.searches));
  const step = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(1, step * 0.75);
  /** @param {number} value */
  const y = (value) => margin.top + plotHeight - (value / max) * plotHeight;
  const total = days.reduce((sum, d) => sum + d.searches, 0);
  const chart = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'analytics-chart-title analytics-chart-desc', class: 'chart-svg' },
    svg('title', { id: 'analytics-chart-title' }, 'Searches per day'),
    svg('desc', { id: 'analytics-chart-desc' }, `${formatInteger(total)} searches from ${days[0]?.day ?? ''} to ${days.at(-1)?.day ?? ''}; at most ${formatInteger(max)} in a day.`));
  const grid = svg('g', { class: 'chart-grid' });
  const labels = svg('g', { class: 'chart-tick-labels', 'text-anchor': 'end' });
  for (const value of [0, Math.round(max / 2), max]) {
    grid.append(svg('line', { x1: margin.left, x2: margin.left + plotWidth, y1: y(value), y2: y(value), class: 'grid-major' }));
    labels.append(svg('text', { x: margin.left - 6, y: y(value), dy: '0.35em' }, formatInteger(value)));
  }
  chart.append(grid, labels);
  const bars = svg('g', {});
  days.forEach((day, i) => {
    const x = margin.left + i * step + (step - barWidth) / 2;
    const tip = svg('title', {}, `${day.day}: ${formatInteger(day.searches)} searches, ${formatInteger(day.zeroResults)} with no result, ${formatInteger(day.clicks)} clicks`);
    bars.append(svg('rect', { x, y: y(day.searches), width: barWidth, height: margin.top + plotHeight - y(day.searches), class: 'bar-searches' }, tip));
    if (day.zeroResults > 0) bars.append(svg('rect', { x, y: y(day.zeroResults), width: barWidth, height: margin.top + plotHeight - y(day.zeroResults), class: 'bar-zero' }));
  });
  chart.append(bars);
  const xLabels = svg('g', { class: 'chart-tick-labels', 'text-anchor': 'middle' });
  for (const i of [0, Math.floor((days.length - 1) / 2), days.length - 1]) {
    if (!days[i]) continue;
    xLabels.append(svg('text', { x: margin.left + i * step + step / 2, y: height - 8 }, days[i].day.slice(5)));
  }
  chart.append(xLabels, svg('line', { x1: margin.left, x2: margin.left + plotWidth, y1: margin.top + plotHeight, y2: margin.top + plotHeight, class: 'axis' }));
  container.replaceChildren(chart);
}
