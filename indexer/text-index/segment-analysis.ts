/**
 * A segment's documents analysed once (words → stop-word filter → stem, with word positions) and
 * read by both builders: the lunr builder gets the terms with an empty index pipeline, the
 * postings builder gets terms and positions. Analysing twice cost a fifth of the build.
 */
import { forEachWord, indexTerm } from './analysis.ts';
import { FIELD_NAMES, toLunrFields, type TextDocument } from './document.ts';

export interface AnalyzedField {
  /** Index terms in text order (stop words removed). */
  terms: string[];
  /** Word ordinal of each term in the field's text (stop words counted). */
  positions: number[];
}

/** Parallel to FIELD_NAMES. */
export type AnalyzedDocument = AnalyzedField[];

export function analyzeDocument(doc: TextDocument): AnalyzedDocument {
  const fields = toLunrFields(doc);
  return FIELD_NAMES.map((field) => {
    const terms: string[] = [];
    const positions: number[] = [];
    forEachWord(fields[field], (word, _start, _length, index) => {
      const term = indexTerm(word);
      if (term === null) return;
      terms.push(term);
      positions.push(index);
    });
    return { terms, positions };
  });
}
