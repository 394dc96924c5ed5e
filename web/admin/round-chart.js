// @ts-check
/**
 * The round's chart as inline SVG: L1 distances per iteration on a log scale (the change falls by
 * orders of magnitude while the error to the truth barely moves), decade grid lines, labelled
 * axes, one line and marker shape per series, a title on every point.
 */
import { byId, svg } from '../lib/dom.js';
import { formatInteger, formatNumber, formatPowerOfTen } from '../lib/format.js';
import { isOver } from './common.js';

/** @typedef {import('./types.js').Round} Round */
/** @typedef {[number, number]} Point */

/**
 * The two series of a round: points (iteration, value) with a positive value (log scale).
 * @param {Round} round
 * @returns {Array<{ name: string, label: string, points: Point[] }>}
 */
function chartSeries(round) {
  const history = round.history ?? [];
  return [
    { name: 'change', label: 'Change', points: history.filter((s) => s.iteration > 0 && s.change > 0).map((s) => [s.iteration, s.change]) },
    { name: 'truth', label: 'Error to truth', points: history.filter((s) => (s.l1ToTruth ?? 0) > 0).map((s) => [s.iteration, s.l1ToTruth ?? 0]) },
  ];
}

/**
 * Splits points into runs of consecutive iterations.
 * @template {number[]} P
 * @param {P[]} points
 * @returns {P[][]}
 */
function consecutiveRuns(points) {
  /** @type {P[][]} */
  const runs = [];
  for (const point of points) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && last[0] === point[0] - 1) run.push(point);
    else runs.push([point]);
  }
  return runs;
}

/** 3, 5, 7–12 (ranges of consecutive iterations). @param {number[]} iterations */
function formatIterationList(iterations) {
  const runs = consecutiveRuns(iterations.map((i) => [i]));
  return runs.map((run) => (run.length > 1 ? `${run[0][0]}–${run[run.length - 1][0]}` : String(run[0][0]))).join(', ');
}

/** Integer ticks 0…max, at most about `count` of them. @param {number} max @param {number} count */
function iterationTicks(max, count) {
  const raw = Math.max(1, max / count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks = [];
  for (let t = 0; t <= max + 1e-9; t += step) ticks.push(Math.round(t));
  return ticks;
}

/** @param {Round | null} shown  the round to draw, or null before any round */
export function drawChart(shown) {
  const container = byId('round-chart');
  // Before any round: empty axes over ten iterations, and what to do.
  /** @type {Round} */
  const round = shown ?? { id: '', state: 'none', iterations: 10, history: [] };
  const width = Math.max(280, Math.round(container.clientWidth || 600));
  const height = width < 480 ? 220 : 280;
  const margin = { top: 14, right: 18, bottom: 44, left: width < 480 ? 54 : 64 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const series = chartSeries(round);
  const hasTruth = series[1].points.length > 0 || round.l1ToTruth !== undefined;
  byId('legend-truth').hidden = !hasTruth;
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

  /** @param {number} iteration */
  const x = (iteration) => margin.left + (iteration / maxIteration) * plotWidth;
  let low = -3;
  let high = 0;
  if (values.length > 0) {
    low = Math.floor(Math.log10(Math.min(...values)));
    high = Math.ceil(Math.log10(Math.max(...values)));
    if (high <= low) high = low + 1;
  }
  /** @param {number} value */
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
  byId('chart-note').textContent = unchanged.length > 0
    ? `A change of 0 cannot be drawn on a log scale; the estimate did not change at iteration${unchanged.length > 1 ? 's' : ''} ${formatIterationList(unchanged)}.`
    : '';

  if (values.length === 0) {
    chart.append(svg('text', { x: margin.left + plotWidth / 2, y: margin.top + plotHeight / 2, 'text-anchor': 'middle', class: 'chart-empty' },
      !shown ? 'No round yet: start one with the form above.'
        : (round.history ?? []).some((s) => s.iteration > 0) ? `The estimate did not change in any of the ${formatInteger(round.iteration ?? 0)} iterations${round.crawled === (round.startPages ?? 0) ? ': no page outside the site was fetched' : ''}.`
          : isOver(round.state) ? 'This round recorded no iteration.' : 'Waiting for the first iteration…'));
  }
  container.replaceChildren(chart);
}
