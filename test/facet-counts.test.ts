/**
 * Facet counts and totals against a reference that counts the definition directly: a result is a
 * group of copies and translations; it counts in the total when one of its matched pages passes
 * every filter, and under a value when one of its matched pages has that value and passes the
 * other dimensions' filters. Random tables with groups, filters, unmatched ids and removed pages.
 */
import { describe, expect, it } from 'vitest';
import { compileFilters, countResults, countSegmentResults, facetTupleColumn, type FacetFilters } from '../indexer/ranking/facets.ts';
import type { CompactSegment } from '../indexer/text-index/compact-segment.ts';
import { facetTuples, facetTupleSteps } from '../indexer/ranking/facet-tuples.ts';
import { FACET_NAMES, PageFacts, type FacetName, type PageFact } from '../indexer/ranking/page-facts.ts';
import { seededRandom } from '../indexer/seeded-random.ts';

const VALUES: Record<FacetName, string[]> = {
  lang: ['en', 'de', 'fr'],
  host: ['a.example', 'b.example'],
  section: ['docs', 'news', 'blog', 'api', ''],
  type: ['html', 'pdf'],
};

function randomFacts(random: () => number, pages: number, sections = VALUES.section): PageFacts {
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
  const urlOf = (id: number) => `https://a.example/p${id}`;
  const facts = new Map<number, PageFact>();
  for (let id = 0; id < pages; id++) {
    // About one page in four is a copy or translation of an earlier page.
    const related = id > 0 && random() < 0.25 ? [urlOf(Math.floor(random() * id))] : [];
    const fact: PageFact = { url: urlOf(id), host: pick(VALUES.host), lang: pick(VALUES.lang), type: pick(VALUES.type), section: pick(sections), date: NaN, indexed: true, related };
    if (related.length > 0 && random() < 0.5) fact.copies = related;
    facts.set(id, fact);
  }
  return new PageFacts(facts);
}

function referenceCounts(facts: PageFacts, filters: FacetFilters, matched: readonly number[], removed: ReadonlySet<number>) {
  const valueOf = (row: number, name: FacetName) => facts.columns[name].values[facts.columns[name].codes[row]];
  const passes = (row: number, except?: FacetName) => FACET_NAMES.every((name) => name === except || !filters[name] || filters[name]!.includes(valueOf(row, name)));
  const filtering = FACET_NAMES.some((name) => filters[name]);
  const totalGroups = new Set<string>();
  const byValue = Object.fromEntries(FACET_NAMES.map((name) => [name, new Map<string, Set<string>>()])) as Record<FacetName, Map<string, Set<string>>>;
  for (const id of matched) {
    const row = facts.rowOf(id);
    if (row < 0) {
      if (!filtering) totalGroups.add(`id${id}`);
      continue;
    }
    if (removed.has(id)) continue;
    const group = `g${facts.group[row]}`;
    if (passes(row)) totalGroups.add(group);
    for (const name of FACET_NAMES) {
      const value = valueOf(row, name);
      if (value === '' || !passes(row, name)) continue;
      if (!byValue[name].has(value)) byValue[name].set(value, new Set());
      byValue[name].get(value)!.add(group);
    }
  }
  const facets = Object.fromEntries(FACET_NAMES.map((name) => [name, Object.fromEntries([...byValue[name]].map(([value, groups]) => [value, groups.size]))]));
  return { total: totalGroups.size, facets };
}

describe('facet counts', () => {
  it('equal a direct count of groups per value, with filters, groups, removed and unknown pages', () => {
    const random = seededRandom(2026);
    for (let table = 0; table < 20; table++) {
      const pages = 50 + Math.floor(random() * 400);
      const facts = randomFacts(random, pages);
      for (let query = 0; query < 25; query++) {
        // Each id once (the engine's matches are unique), some past the table (pages the facts do not know yet).
        const matched = [...new Set(Array.from({ length: Math.floor(random() * pages) }, () => Math.floor(random() * (pages + 20))))];
        const filters: FacetFilters = {};
        for (const name of FACET_NAMES) {
          if (random() < 0.3) filters[name] = VALUES[name].filter((value) => value !== '' && random() < 0.5);
          if (filters[name]?.length === 0) delete filters[name];
        }
        const removed = new Set(matched.filter(() => random() < 0.05));
        const got = countResults(facts, compileFilters(facts, filters), matched, removed.size > 0 ? (row) => removed.has(facts.ids[row]) : undefined);
        const want = referenceCounts(facts, filters, matched, removed);
        expect(got.total, `table ${table} query ${query}`).toBe(want.total);
        for (const name of FACET_NAMES) expect({ ...got.facets[name] }, `${name}, table ${table} query ${query}`).toEqual(want.facets[name]);
      }
    }
  });

  it('are the same counted by segment and ordinal, through a column of combinations per segment', () => {
    const random = seededRandom(77);
    // Columns of a byte (the first tables), of two bytes (hundreds of sections) and of four (a combination per page).
    const sizes = [...Array.from({ length: 10 }, () => [50 + Math.floor(random() * 400), 5]), [3_000, 300], [100_000, 100_000]];
    for (const [table, [pages, sectionCount]] of sizes.entries()) {
      const sections = Array.from({ length: sectionCount }, (_, i) => (i === 0 ? '' : `s${i}`));
      const facts = randomFacts(random, pages, sections);
      const column = facetTupleColumn(facts);
      const width = column.of({ docIds: new Int32Array(1) } as unknown as CompactSegment).BYTES_PER_ELEMENT;
      expect(width).toBe(table < 10 ? 1 : table === 10 ? 2 : 4);
      // Segments hold ascending page ids, some past the table; each page lives in one segment.
      const segments: CompactSegment[] = [[], [], []].map(() => ({ docIds: new Int32Array(0) }) as unknown as CompactSegment);
      const idsOf: number[][] = [[], [], []];
      for (let id = 0; id < pages + 20; id++) idsOf[Math.floor(random() * 3)].push(id);
      idsOf.forEach((ids, s) => (segments[s].docIds = Int32Array.from(ids)));
      for (let query = 0; query < (pages > 10_000 ? 2 : 20); query++) {
        const chosen = segments.map((segment) => Int32Array.from(segment.docIds.keys()).filter(() => random() < 0.3));
        const matched = chosen.flatMap((ordinals, s) => [...ordinals].map((d) => segments[s].docIds[d]));
        const filters: FacetFilters = {};
        for (const name of FACET_NAMES) {
          if (random() < 0.3) filters[name] = (name === 'section' ? facts.columns.section.values.slice(0, 40) : VALUES[name]).filter((value) => value !== '' && random() < 0.5);
          if (filters[name]?.length === 0) delete filters[name];
        }
        const bySegment = chosen.map((ordinals, s) => ({ ordinals, docIds: segments[s].docIds, tuples: column.of(segments[s]) }));
        const got = countSegmentResults(facts, compileFilters(facts, filters), bySegment);
        const want = referenceCounts(facts, filters, matched, new Set());
        expect(got.total, `table ${table} query ${query}`).toBe(want.total);
        for (const name of FACET_NAMES) expect({ ...got.facets[name] }, `${name}, table ${table} query ${query}`).toEqual(want.facets[name]);
      }
    }
  });

  it('number the combinations in order of first row, through a table or a map alike', () => {
    const random = seededRandom(3);
    const rows = 50_000;
    const group = Int32Array.from({ length: rows }, (_, row) => (row % 9 === 4 ? row - 1 : row));
    const groupSize = new Int32Array(rows);
    for (const g of group) groupSize[g]++;
    // Few values (a table of keys) and thousands per dimension (past the table: a map).
    for (const values of [[3, 2, 20, 2], [3_000, 2, 900, 2]]) {
      const columns = values.map((n) => Uint16Array.from({ length: rows }, () => Math.floor(random() ** 2 * n)));
      const tuples = facetTuples(columns, group, groupSize);
      const numberOf = new Map<string, number>();
      const expected = Int32Array.from({ length: rows }, (_, row) => {
        const key = `${groupSize[group[row]] > 1 ? 1 : 0}:${columns.map((codes) => codes[row]).join(':')}`;
        if (!numberOf.has(key)) numberOf.set(key, numberOf.size);
        return numberOf.get(key)!;
      });
      expect(tuples.ofRow).toEqual(expected);
      expect(tuples.count).toBe(numberOf.size);
      for (const [key, t] of numberOf) expect([tuples.grouped[t], ...tuples.codes.subarray(t * 4, t * 4 + 4)].join(':')).toBe(key);
    }
  });

  it('number a large table in steps: both passes over the rows yield, with the same result', () => {
    const random = seededRandom(5);
    const rows = 200_000;
    const group = Int32Array.from({ length: rows }, (_, row) => row);
    const groupSize = new Int32Array(rows).fill(1);
    const columns = [4, 3, 50, 2].map((n) => Uint16Array.from({ length: rows }, () => Math.floor(random() * n)));
    const steps = facetTupleSteps(columns, group, groupSize);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(step.value).toEqual(facetTuples(columns, group, groupSize));
    // 32,768 rows a step: the largest codes, then the numbering (each once over the rows).
    expect(yields).toBeGreaterThanOrEqual(2 * Math.floor(rows / 32_768));
  });
});
