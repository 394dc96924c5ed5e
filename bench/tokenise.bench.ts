/**
 * Tokenising real text: the Debian Reference's chapters in five languages (installed by
 * `.ci/run`; languages missing here are skipped). For each, the chunks found by the tokeniser's
 * scanner (plain ASCII words by hand, the rest by the chunk expression) against the chunk
 * expression alone, and the whole analysis (`forEachToken`: chunks, lower case, stop words,
 * stems through the memo), in ns per chunk or token, best of 15 runs after a warm-up.
 *
 *   npm run bench -- tokenise
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as cheerio from 'cheerio';
import { ChunkScanner, forEachToken } from '../indexer/text-index/analysis.ts';
import type { BenchContext } from './run.ts';

const DOCS = '/usr/share/doc/debian-reference-common/docs';
const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'];
/** The definition the scanner follows (analysis.ts). */
const CHUNK = /[\p{L}\p{N}\p{M}_]+(?:(?:\.|::|:|\/|#)[\p{L}\p{N}\p{M}_]+)*/gu;

export async function tokeniseBenchmarks(bench: BenchContext): Promise<void> {
  bench.heading('tokenise: the Debian Reference, ns per chunk and per token (best of 15)');
  if (!existsSync(DOCS)) {
    bench.note(`${DOCS} is missing (debian-reference-*): nothing measured`);
    return;
  }
  const rows: Array<Array<string | number>> = [['language', 'characters', 'chunks', 'chunks: expression alone', 'chunks: scanner', 'tokens', 'forEachToken']];
  for (const lang of LANGUAGES) {
    const files = readdirSync(DOCS).filter((file) => file.endsWith(`.${lang}.html`));
    if (files.length === 0) continue;
    const text = files.map((file) => cheerio.load(readFileSync(join(DOCS, file), 'utf8'))('body').text()).join('\n');
    let chunks = 0;
    const byExpression = () => {
      chunks = 0;
      const expression = new RegExp(CHUNK.source, 'gu');
      while (expression.exec(text) !== null) chunks++;
    };
    const byScanner = () => {
      const scanner = new ChunkScanner(text, 0);
      let found = 0;
      while (scanner.next()) found++;
      if (found !== chunks) throw new Error(`${lang}: the scanner found ${found} chunks, the expression ${chunks}`);
    };
    let tokens = 0;
    const analyse = () => {
      tokens = 0;
      forEachToken(text, lang, () => tokens++);
    };
    const expression = await bench.time(byExpression, { runs: 15, warmup: 1 });
    const scanner = await bench.time(byScanner, { runs: 15, warmup: 1 });
    const analysis = await bench.time(analyse, { runs: 15, warmup: 1 });
    const ns = (seconds: number, count: number) => ((seconds * 1e9) / count).toFixed(0);
    rows.push([lang, text.length, chunks, ns(expression.min, chunks), ns(scanner.min, chunks), tokens, ns(analysis.min, tokens)]);
  }
  bench.table(rows);
}
