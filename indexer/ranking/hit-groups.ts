/**
 * One hit per page, whatever its copies and translations. Ranked candidates that belong to one
 * group (exact or near duplicates, canonical links, hreflang translations) are shown once, at the
 * place of the best ranked of them. The hit is a copy that matched: in the requested language
 * first, then the visitor's languages, then the query's own; of that language's copies, the one
 * whose URL names the language, else the one with the highest local PageRank, else the shortest
 * URL. The others are listed with it: the same language's copies as `duplicates`, the other
 * languages as `alternates`.
 */
import { urlNamesLanguage, type PageFacts } from './page-facts.ts';

export interface GroupCandidate {
  id: number;
}

export interface HitGroup<C extends GroupCandidate> {
  /** The candidate whose title and snippet are shown. */
  shown: C;
  /** The URL shown (the shown page, or a copy of it preferred by the rules above). */
  url: string;
  lang?: string;
  duplicates: string[];
  alternates: Array<{ url: string; lang: string }>;
}

/**
 * Groups candidates in rank order. `preferred` are languages in order of preference (requested,
 * then the visitor's, then the query's); `localRank` gives a page's local PageRank by id.
 */
export function groupCandidates<C extends GroupCandidate>(
  facts: PageFacts,
  candidates: readonly C[],
  preferred: readonly string[],
  localRank: (id: number) => number,
): Array<HitGroup<C>> {
  const order: Array<{ key: number; members: C[] }> = [];
  const byKey = new Map<number, C[]>();
  for (const candidate of candidates) {
    const row = facts.rowOf(candidate.id);
    if (row < 0) {
      order.push({ key: -1, members: [candidate] });
      continue;
    }
    const key = facts.group[row];
    const members = byKey.get(key);
    if (members) members.push(candidate);
    else {
      const list = [candidate];
      byKey.set(key, list);
      order.push({ key, members: list });
    }
  }
  return order.map(({ key, members }) => (key < 0 ? { shown: members[0], url: '', duplicates: [], alternates: [] } : makeGroup(facts, key, members, preferred, localRank)));
}

function makeGroup<C extends GroupCandidate>(facts: PageFacts, key: number, matched: C[], preferred: readonly string[], localRank: (id: number) => number): HitGroup<C> {
  const langOf = (id: number) => facts.facts[facts.rowOf(id)].lang;
  let shown = matched[0];
  for (const lang of preferred) {
    const match = matched.find((candidate) => langOf(candidate.id) === lang);
    if (match) {
      shown = match;
      break;
    }
  }
  const lang = langOf(shown.id);
  const rows = facts.members.get(key) ?? [facts.rowOf(shown.id)];
  const byLanguage = new Map<string, number[]>();
  for (const row of rows) {
    const rowLang = facts.facts[row].lang;
    const list = byLanguage.get(rowLang);
    if (list) list.push(row);
    else byLanguage.set(rowLang, [row]);
  }
  const copies = preferredCopies(facts, byLanguage.get(lang) ?? [], lang, localRank);
  const alternates: Array<{ url: string; lang: string }> = [];
  for (const [otherLang, otherRows] of [...byLanguage].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (otherLang === lang) continue;
    alternates.push({ url: facts.facts[preferredCopies(facts, otherRows, otherLang, localRank)[0]].url, lang: otherLang });
  }
  const url = copies.length > 0 ? facts.facts[copies[0]].url : facts.facts[facts.rowOf(shown.id)].url;
  return { shown, url, lang, duplicates: copies.slice(1).map((row) => facts.facts[row].url), alternates };
}

/** Copies of one language, best first: URL names the language, higher local PageRank, shorter URL. */
export function preferredCopies(facts: PageFacts, rows: readonly number[], lang: string, localRank: (id: number) => number): number[] {
  return [...rows].sort((a, b) => {
    const urlA = facts.facts[a].url;
    const urlB = facts.facts[b].url;
    const namesA = urlNamesLanguage(urlA, lang) ? 1 : 0;
    const namesB = urlNamesLanguage(urlB, lang) ? 1 : 0;
    if (namesA !== namesB) return namesB - namesA;
    const rankDifference = localRank(facts.ids[b]) - localRank(facts.ids[a]);
    if (rankDifference !== 0) return rankDifference;
    return urlA.length - urlB.length || urlA.localeCompare(urlB);
  });
}
