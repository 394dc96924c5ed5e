/**
 * A small, dependency-free SVG line chart for reports (the experiment's L1-per-iteration curves,
 * like the paper's Figure 2). Self-contained: axes with "nice" ticks, axis labels, a legend.
 */

export interface ChartSeries {
  name: string;
  points: ReadonlyArray<readonly [number, number]>;
}

export interface LineChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly ChartSeries[];
  width?: number;
  height?: number;
}

// Colour-blind-safe palette (Okabe–Ito).
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '', '6 3', '2 3', ''];

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** Round, evenly spaced tick values covering [low, high] (about `count` of them). */
export function niceTicks(low: number, high: number, count = 6): number[] {
  if (!(high > low)) {
    const pad = Math.abs(low) > 0 ? Math.abs(low) * 0.1 : 1;
    return niceTicks(low - pad, high + pad, count);
  }
  const raw = (high - low) / Math.max(1, count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let v = Math.floor(low / step) * step; v <= high + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1] < high) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

function formatTick(value: number): string {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e4 || abs < 1e-3) return value.toExponential(1);
  return String(Number(value.toPrecision(4)));
}

export function renderLineChartSvg(spec: LineChartSpec): string {
  const width = spec.width ?? 720;
  const height = spec.height ?? 440;
  const margin = { top: 48, right: 170, bottom: 56, left: 76 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const all = spec.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const xs = all.map(([x]) => x);
  const ys = all.map(([, y]) => y);
  const xTicks = niceTicks(xs.length ? Math.min(...xs) : 0, xs.length ? Math.max(...xs) : 1);
  const yTicks = niceTicks(ys.length ? Math.min(0, Math.min(...ys)) : 0, ys.length ? Math.max(...ys) : 1);
  const [x0, x1] = [xTicks[0], xTicks[xTicks.length - 1]];
  const [y0, y1] = [yTicks[0], yTicks[yTicks.length - 1]];
  const sx = (x: number) => margin.left + ((x - x0) / (x1 - x0)) * plotW;
  const sy = (y: number) => margin.top + plotH - ((y - y0) / (y1 - y0)) * plotH;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">`,
    `<title>${escapeXml(spec.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${margin.left + plotW / 2}" y="26" text-anchor="middle" font-size="15" font-weight="600">${escapeXml(spec.title)}</text>`,
  );
  for (const t of yTicks) {
    const y = sy(t).toFixed(1);
    out.push(`<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${y}" y2="${y}" stroke="#e3e3e3"/>`);
    out.push(`<text x="${margin.left - 8}" y="${y}" dy="4" text-anchor="end" fill="#333">${formatTick(t)}</text>`);
  }
  for (const t of xTicks) {
    const x = sx(t).toFixed(1);
    out.push(`<line x1="${x}" x2="${x}" y1="${margin.top + plotH}" y2="${margin.top + plotH + 5}" stroke="#333"/>`);
    out.push(`<text x="${x}" y="${margin.top + plotH + 19}" text-anchor="middle" fill="#333">${formatTick(t)}</text>`);
  }
  out.push(`<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`);
  out.push(`<text x="${margin.left + plotW / 2}" y="${height - 14}" text-anchor="middle" font-size="13">${escapeXml(spec.xLabel)}</text>`);
  out.push(
    `<text transform="translate(18 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle" font-size="13">${escapeXml(spec.yLabel)}</text>`,
  );
  spec.series.forEach((series, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const dash = DASHES[i % DASHES.length];
    const path = series.points
      .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y))
      .map(([x, y], k) => `${k === 0 ? 'M' : 'L'}${sx(x).toFixed(1)} ${sy(y).toFixed(1)}`)
      .join(' ');
    out.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}><title>${escapeXml(series.name)}</title></path>`);
    const ly = margin.top + 12 + i * 22;
    const lx = margin.left + plotW + 16;
    out.push(`<line x1="${lx}" x2="${lx + 28}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`);
    out.push(`<text x="${lx + 36}" y="${ly}" dy="4">${escapeXml(series.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
