/**
 * Language detection that gives exactly what the npm package eld 2.1.0 gives with its "small"
 * table (`eld.detect` from `eld/small`: same language, same scores bit for bit, same reliability),
 * over a table kept in a few typed arrays.
 *
 * Why not eld itself: its table is a JavaScript object of 81,206 n-grams, each an object, an array
 * of property values and a key string; with its module's bytecode, 345,000 heap objects and 46 MB
 * that every major garbage collection marks, so that a search served beside an index update waited
 * on marking a table that never changes. Here the table is 7 typed arrays (3.7 MB outside the
 * heap, marked in constant time), read from eld's data file on the first detection (50 ms, against
 * 300 ms for importing eld), and detection runs 3.5 times as fast.
 */
import { AVERAGE_SCORES } from './eld-constants.ts';
import { detectRaw, type RawDetection } from './detect.ts';
import { parseNgramTable, readEldSmallSource, type NgramTable } from './table.ts';

/** Read on the first detection (50 ms): commands that detect nothing do not pay for it. */
let table: NgramTable | null = null;
function loadedTable(): NgramTable {
  return (table ??= parseNgramTable(readEldSmallSource()));
}

/** Reads the table now (a server at start: else its first search that detects a language pays the 50 ms). */
export function prepareLanguageDetection(): void {
  loadedTable();
}

/** eld turns a language's score per n-gram into 0–1 as `s / (s + 25)`. */
const SCALE = 25;

/** What eld's `LanguageResult` offers: the language (`''` when none), its scores and reliability. */
export class NgramLanguageResult {
  private ordered: Array<[number, number]> | null = null;

  constructor(
    /** ISO 639-1 code, or `''` when no language scored. */
    readonly language: string,
    private readonly raw: RawDetection | null,
    /** ISO 639-1 code of each language index of `raw`. */
    private readonly languages: readonly string[] = [],
  ) {}

  /** Scores (0–1) of the languages that scored, best first, keyed by ISO 639-1 code. */
  getScores(): Record<string, number> {
    const scores: Record<string, number> = {};
    for (const [language, score] of this.order()) scores[this.languages[language]] = score;
    return scores;
  }

  /**
   * Whether the best score reaches `thresholdRatio` of the language's average right score and
   * stands apart. eld compares it with the runner-up's language index, not its score; kept so.
   */
  isReliable(thresholdRatio = 0.75): boolean {
    const ordered = this.order();
    if (!ordered.length || this.raw === null || this.raw.ngramCount < 3) return false;
    const next = ordered.length > 1 ? ordered[1][0] : 0;
    return !(AVERAGE_SCORES[this.language] * thresholdRatio > ordered[0][1] || 0.01 > Math.abs(ordered[0][1] - next));
  }

  private order(): Array<[number, number]> {
    if (this.ordered) return this.ordered;
    const ordered: Array<[number, number]> = [];
    if (this.raw !== null) {
      const { scores, ngramCount } = this.raw;
      for (let language = 0; language < scores.length; language++) {
        if (scores[language] <= 0) continue;
        const perNgram = scores[language] / ngramCount;
        ordered.push([language, perNgram / (perNgram + SCALE)]);
      }
    }
    // A stable sort: equal scores keep the table's language order, as in eld.
    return (this.ordered = ordered.sort((a, b) => b[1] - a[1]));
  }
}

/** The language a text is written in, as eld 2.1.0 (small table) tells it. */
export function detectNgramLanguage(text: string): NgramLanguageResult {
  const table = loadedTable();
  const { languages } = table;
  const raw = detectRaw(table, text);
  return raw.best < 0 ? new NgramLanguageResult('', null) : new NgramLanguageResult(languages[raw.best], raw, languages);
}
