/**
 * The work one search may do. A search runs on the thread that answers every request, so its cost
 * must be bounded whatever the query says: the edit distance of `word~N`, the words of a pasted
 * page, a leading wildcard over the whole dictionary. Each limit is enforced where the work is
 * spent; a query that reaches one is answered with what fits, marked `partial`, with a notice
 * saying which limit and why (Elasticsearch caps `fuzziness` at 2 and `max_expansions`, Lucene
 * `max_clause_count`, the same way).
 */

/** Counted at most: a larger `word~N` is searched at this distance (Lucene's maximum). */
export const MAX_EDIT_DISTANCE = 2;
/** Query words (a phrase counts its words); later words are ignored (web engines stop at 32). */
export const MAX_QUERY_WORDS = 32;
/** Query characters read by the text index (the HTTP API takes 500). */
export const MAX_QUERY_CHARS = 2_000;
/** Index terms a wildcard or fuzzy word is searched with: the most frequent ones it matches. */
export const MAX_PATTERN_TERMS = 100;
/** Dictionary entries one search may visit to expand wildcards, fuzzy words, typos and prefixes. */
export const MAX_SCANNED_TERMS = 200_000;
/** Postings one search may score for expanded terms (the query's own terms are always scored). */
export const MAX_EXPANSION_POSTINGS = 4_000_000;
/** Word positions one search may check to match phrases. */
export const MAX_PHRASE_POSITIONS = 1_000_000;

/** Why an answer differs from what the query asked for. */
export interface QueryNotice {
  code: string;
  message: string;
}

/** What a search did, for tests, explanations and benchmarks. */
export interface QueryWork {
  /** Dictionary entries visited by expansions. */
  scannedTerms: number;
  /** Terms added by wildcard, fuzzy, typo and prefix expansion. */
  expandedTerms: number;
  /** Postings scored (every term of the query vector, every field). */
  scoredPostings: number;
  /** Word positions checked to match phrases. */
  phrasePositions: number;
  /** Matching documents that top-k ranked (after the page's filter; top-k.ts). */
  candidates: number;
  /** Of those, the documents whose exact score was computed (the others were pruned). */
  scoredDocuments: number;
  /** Posting weights computed for those scores. */
  scoredWeights: number;
  /** Segments whose block bounds left too many candidates to score, bounded exactly for more lists (top-k.ts). */
  refinedSegments: number;
}

/**
 * One search's allowance and what it has spent. Shared by the runs of one request (a query's
 * synonym spellings, the fallback to any word), so the whole request stays within it.
 */
export class QueryBudget {
  readonly work: QueryWork = { scannedTerms: 0, expandedTerms: 0, scoredPostings: 0, phrasePositions: 0, candidates: 0, scoredDocuments: 0, scoredWeights: 0, refinedSegments: 0 };
  readonly notices: QueryNotice[] = [];
  /** The answer may lack pages because a limit was reached. */
  partial = false;

  constructor(
    readonly maxScannedTerms = MAX_SCANNED_TERMS,
    readonly maxExpansionPostings = MAX_EXPANSION_POSTINGS,
    readonly maxPhrasePositions = MAX_PHRASE_POSITIONS,
  ) {}

  /** Counts one word position checked for a phrase; false once the allowance is spent (matching stops). */
  checkPosition(): boolean {
    if (this.work.phrasePositions >= this.maxPhrasePositions) {
      this.limitReached('LSE_QUERY_PHRASE_LIMIT', `matching phrases stopped after ${this.maxPhrasePositions.toLocaleString('en')} word positions`);
      return false;
    }
    this.work.phrasePositions++;
    return true;
  }

  /** Counts one visited dictionary entry; false once the allowance is spent (the walk stops). */
  scan(): boolean {
    if (this.work.scannedTerms >= this.maxScannedTerms) {
      this.limitReached('LSE_QUERY_SCAN_LIMIT', `expanding wildcards, fuzzy words and prefixes stopped after ${this.maxScannedTerms.toLocaleString('en')} dictionary entries`);
      return false;
    }
    this.work.scannedTerms++;
    return true;
  }

  get scansLeft(): boolean {
    return this.work.scannedTerms < this.maxScannedTerms;
  }

  /** Records a notice once per code; `partial` when the answer may miss pages because of it. */
  notice(code: string, message: string, partial = false): void {
    if (partial) this.partial = true;
    if (!this.notices.some((notice) => notice.code === code)) this.notices.push({ code, message });
  }

  limitReached(code: string, message: string): void {
    this.notice(code, message, true);
  }
}
