/**
 * The suggestion index refreshed from what each page contributes equals the one a full build over
 * the same pages gives, column for column, after pages are added, changed and removed and after
 * the ranks change: real Django and Sphinx pages.
 */
import { describe, expect, it } from 'vitest';
import { rankScale } from '../indexer/ranking/blend.ts';
import { runSteps } from '../indexer/stepwise.ts';
import { ContributionsWriter, replaceRowsSteps, Vocabulary, type SuggestContributions } from '../indexer/suggest/suggest-contributions.ts';
import { rankedSuggestionsSteps } from '../indexer/suggest/suggest-ranking.ts';
import { SuggestIndex, type SuggestSource } from '../indexer/suggest/suggest-index.ts';
import { realDocPages } from './helpers/real-doc-pages.ts';

function contributionsOf(pages: readonly SuggestSource[]): SuggestContributions {
  const writer = new ContributionsWriter(new Vocabulary());
  for (const page of [...pages].sort((a, b) => a.id - b.id)) writer.add(page);
  return runSteps(writer.doneSteps());
}

const fullBuild = (pages: readonly SuggestSource[], rankOf: (id: number) => number, scale = rankScale(pages.map((p) => rankOf(p.id)))) =>
  SuggestIndex.build([...pages].sort((a, b) => a.id - b.id), rankOf, scale);

describe('suggestions from page contributions', () => {
  const pages = realDocPages(400);

  it('are the columns of a full build, with and without a given scale', async () => {
    expect(pages.length).toBeGreaterThan(300);
    const rankOf = (id: number) => (id % 5 === 0 ? 0 : ((id * 7919) % 1000) / 1e5);
    const c = contributionsOf(pages);
    const scale = rankScale(pages.map((p) => rankOf(p.id)));
    expect(runSteps(rankedSuggestionsSteps(c, rankOf, scale)).toColumns()).toStrictEqual((await fullBuild(pages, rankOf, scale)).toColumns());
    expect(runSteps(rankedSuggestionsSteps(c, rankOf)).toColumns()).toStrictEqual((await SuggestIndex.build([...pages], rankOf)).toColumns());
  });

  it('are the columns of a full build after pages are added, changed and removed', async () => {
    const before = pages.slice(0, 300);
    // Pages 300–399 arrive; some old ones get the text of others (new words, other titles); some go.
    const changed = new Map<number, SuggestSource | undefined>();
    for (const page of pages.slice(300)) changed.set(page.id, page);
    for (let id = 3; id < 300; id += 17) changed.set(id, { ...pages[(id * 31) % 400], id, url: `http://docs.test/moved/${id}`, title: id % 2 === 0 ? '' : `${pages[id].title} ZZ-new-word-${id}` });
    for (let id = 5; id < 300; id += 23) changed.set(id, undefined);
    changed.set(10_000, undefined);
    const after = new Map<number, SuggestSource>(before.map((p) => [p.id, p]));
    for (const [id, page] of changed) {
      if (page) after.set(id, page);
      else after.delete(id);
    }
    const updated = runSteps(replaceRowsSteps(contributionsOf(before), changed));
    const rankOf = (id: number) => ((id * 104729) % 997) / 1e4;
    expect(runSteps(rankedSuggestionsSteps(updated, rankOf)).toColumns()).toStrictEqual((await fullBuild([...after.values()], rankOf)).toColumns());
    // The same rows again, under other ranks: nothing read, the same columns as a full build.
    const otherRanks = (id: number) => (id % 3 === 0 ? 0.5 : 1e-6 * id);
    expect(runSteps(rankedSuggestionsSteps(updated, otherRanks)).toColumns()).toStrictEqual((await fullBuild([...after.values()], otherRanks)).toColumns());
    // Rows as a fresh pass over the same pages writes them, but for the vocabulary's numbering.
    expect(updated.pageIds).toStrictEqual(Int32Array.from([...after.keys()].sort((a, b) => a - b)));
  });

  it('are refreshed and ranked in short steps at thousands of pages', () => {
    // A server's first refresh runs before its code is compiled: steps of 8,192 rows (1,024 in
    // the score pass) held its event loop 66-126 ms in a profile at a million pages.
    const many = Array.from({ length: 4_096 }, (_, i) => ({ ...pages[i % pages.length], id: i, url: `http://docs.test/copy/${i}` }));
    const changed = new Map<number, SuggestSource | undefined>([[7, undefined], [4_100, { ...pages[0], id: 4_100, url: 'http://docs.test/new' }]]);
    const count = <T>(steps: Generator<void, T>) => {
      let yields = 0;
      let step = steps.next();
      for (; !step.done; step = steps.next()) yields++;
      return { yields, value: step.value };
    };
    const refreshed = count(replaceRowsSteps(contributionsOf(many), changed));
    expect(refreshed.yields).toBeGreaterThanOrEqual(4_096 / 1_024);
    const ranked = count(rankedSuggestionsSteps(refreshed.value, (id) => id / 1e6));
    expect(ranked.yields).toBeGreaterThanOrEqual(4_096 / 128);
  });
});
