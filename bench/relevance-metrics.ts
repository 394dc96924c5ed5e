/**
 * Known-item measures over ranked result lists: MRR@10 (the reciprocal rank of the first page
 * that answers, 0 past the tenth), success@1 and success@10.
 */
import type { JudgedQuery } from './relevance-judged.ts';

export interface Effectiveness {
  queries: number;
  mrr10: number;
  success1: number;
  success10: number;
}

/** A result: its path, or its paths when it stands for copies of one page (a result lists its copies). */
export type RankedResult = string | readonly string[];

/** Rank (1-based) of the first relevant result among `ranked`, or 0 when none is in the top 10. */
export function firstRelevantRank(ranked: readonly RankedResult[], relevant: readonly string[]): number {
  const wanted = new Set(relevant);
  const at = ranked.slice(0, 10).findIndex((result) => (typeof result === 'string' ? wanted.has(result) : result.some((path) => wanted.has(path))));
  return at + 1;
}

export function effectiveness(queries: readonly JudgedQuery[], rankedPaths: ReadonlyArray<readonly RankedResult[]>): Effectiveness {
  let mrr = 0;
  let at1 = 0;
  let at10 = 0;
  queries.forEach((query, i) => {
    const rank = firstRelevantRank(rankedPaths[i] ?? [], query.relevant);
    if (rank === 0) return;
    mrr += 1 / rank;
    if (rank === 1) at1++;
    at10++;
  });
  const n = Math.max(1, queries.length);
  return { queries: queries.length, mrr10: mrr / n, success1: at1 / n, success10: at10 / n };
}

/** `.50 / .43 / .65` */
export function formatEffectiveness(e: Effectiveness | undefined): string {
  if (!e) return '—';
  const f = (x: number, places = 2) => x.toFixed(places).replace(/^0/, '');
  // MRR to three places: the goal compares it with the site's own search, often within .01.
  return `${f(e.mrr10, 3)} / ${f(e.success1)} / ${f(e.success10)}`;
}

/** A result URL as a site path without fragment or query (`/ref/settings.html`), or undefined for another site's. */
export function sitePath(url: string, base: string): string | undefined {
  try {
    const parsed = new URL(url, base);
    if (parsed.host !== new URL(base).host) return undefined;
    return decodeURIComponent(parsed.pathname.endsWith('/') ? `${parsed.pathname}index.html` : parsed.pathname);
  } catch {
    return undefined;
  }
}
