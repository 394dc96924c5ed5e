/**
 * A segment's documents analysed once (analysis.ts in the document's language, with word positions) and
 * read by both builders: the lunr builder gets the terms with an empty index pipeline, the
 * postings builder gets terms and positions. Analysing twice cost a fifth of the build.
 */
import { forEachToken, isSegmentedScript } from './analysis.ts';
import { analysisLanguage } from './languages.ts';
import { FIELD_NAMES, toLunrFields, type TextDocument } from './document.ts';
import { DEFINITIONS_FIELD, documentExactNames, HEADINGS_FIELD, TITLE_FIELD } from './exact-name.ts';

export interface AnalyzedField {
  /** Index terms in text order (stop words removed). */
  terms: string[];
  /** Word ordinal of each term in the field's text (stop words counted). */
  positions: number[];
}

/**
 * Parallel to FIELD_NAMES; `checkpoints` are [word ordinal, offset] pairs of chunk starts in the
 * body, one every {@link CHECKPOINT_WORDS} words, so a snippet can tokenise from near a match
 * instead of from the start of the page.
 */
export type AnalyzedDocument = AnalyzedField[] & { checkpoints?: number[]; surfaces?: Map<string, string>; definitionPositions?: number[] };

export const CHECKPOINT_WORDS = 32;
/**
 * Checkpoints kept per body: a whole reference page (300k words) would store ten thousand, read
 * with its line on every hit; thinned to this many, a snippet tokenises a few hundred words at most.
 */
export const MAX_CHECKPOINTS = 1_024;
const BODY = FIELD_NAMES.indexOf('body');
/** Fields whose stop words are indexed as written: a title or heading may be only stop words (`If`, `The Who`). */
const STOP_WORD_FIELDS = new Set([FIELD_NAMES.indexOf('title'), FIELD_NAMES.indexOf('headings')]);

/** Every field is analysed in the document's language. */
export function analyzeDocument(doc: TextDocument): AnalyzedDocument {
  const fields = toLunrFields(doc);
  const lang = analysisLanguage(doc.lang);
  const checkpoints: number[] = [];
  let nextCheckpoint = CHECKPOINT_WORDS;
  const onChunk = (start: number, index: number) => {
    if (index < nextCheckpoint) return;
    checkpoints.push(index, start);
    nextCheckpoint = index + CHECKPOINT_WORDS;
  };
  // Written word → term, for words whose term differs (prefixes match words as written).
  const surfaces = new Map<string, string>();
  // The body word where each definition starts (a hit on a definition shows the passage there).
  const definitions = doc.definitions ?? [];
  const definitionPositions: number[] = [];
  const onBodyToken = (start: number, index: number) => {
    while (definitionPositions.length < definitions.length && definitions[definitionPositions.length].start <= start) definitionPositions.push(index);
  };
  const analyzed: AnalyzedDocument = FIELD_NAMES.map((field, f) => {
    const terms: string[] = [];
    const positions: number[] = [];
    const text = fields[field];
    const keepStopWords = STOP_WORD_FIELDS.has(f);
    const visit = (term: string | null, start: number, length: number, index: number) => {
      if (f === BODY) onBodyToken(start, index);
      if (term === null) {
        if (!keepStopWords) return;
        term = text.slice(start, start + length).toLowerCase();
      }
      terms.push(term);
      positions.push(index);
      if (term.length === length && text.startsWith(term, start)) return;
      const surface = text.slice(start, start + length).toLowerCase();
      if (surface !== term && !surfaces.has(surface) && !isSegmentedScript(surface)) surfaces.set(surface, term);
    };
    forEachToken(text, lang, visit, f === BODY ? { from: 0, firstIndex: 0, until: Infinity, onChunk } : undefined);
    return { terms, positions };
  });
  // Exact-name terms (exact-name.ts) after the field's words, so no phrase reaches them.
  const exactNames = documentExactNames(doc);
  appendTerms(analyzed[TITLE_FIELD], exactNames.title);
  appendTerms(analyzed[HEADINGS_FIELD], exactNames.headings);
  appendTerms(analyzed[DEFINITIONS_FIELD], exactNames.definitions);
  analyzed.checkpoints = thinCheckpoints(checkpoints);
  if (definitions.length > 0) {
    const last = Math.max(0, (analyzed[BODY].positions.at(-1) ?? 0));
    while (definitionPositions.length < definitions.length) definitionPositions.push(last);
    analyzed.definitionPositions = definitionPositions;
  }
  analyzed.surfaces = surfaces;
  return analyzed;
}

function appendTerms(field: AnalyzedField, terms: readonly string[]): void {
  let position = (field.positions.at(-1) ?? -1) + 2;
  for (const term of terms) {
    field.terms.push(term);
    field.positions.push(position++);
  }
}

/** Every k-th [ordinal, offset] pair, so that at most MAX_CHECKPOINTS remain (the first always). */
export function thinCheckpoints(pairs: number[]): number[] {
  const count = pairs.length / 2;
  if (count <= MAX_CHECKPOINTS) return pairs;
  const step = Math.ceil(count / MAX_CHECKPOINTS);
  const kept: number[] = [];
  for (let i = 0; i < count; i += step) kept.push(pairs[2 * i], pairs[2 * i + 1]);
  return kept;
}
