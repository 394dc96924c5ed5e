/**
 * A lunr index over analysed documents: the independent reference that tests and benchmarks
 * compare the postings' scores with (the index itself no longer builds one per segment).
 */
import lunr from 'lunr';
import { INDEX_FIELDS, type TextDocument } from './document.ts';
import { analyzeDocument, type AnalyzedDocument } from './segment-analysis.ts';

/** lunr's serialised index (the shape `lunr.Index.prototype.toJSON` returns). */
export interface LunrIndexJson {
  version: string;
  fields: string[];
  fieldVectors: Array<[string, number[]]>;
  invertedIndex: Array<[string, LunrPostingJson]>;
  pipeline: string[];
}

/** term → field → doc ref → metadata (empty: no metadata is whitelisted). */
export type LunrPostingJson = { _index: number } & Record<string, Record<string, object> | number>;

export interface BuiltLunrSegment {
  /** Page ids in ordinal order (ascending). */
  docIds: number[];
  lunr: LunrIndexJson;
}

// The fields arrive analysed: the tokenizer wraps the terms, the index pipeline is empty.
const NO_METADATA = Object.freeze({});
const termTokenizer = ((terms: string[]) => terms.map((term) => new lunr.Token(term, NO_METADATA))) as unknown as typeof lunr.tokenizer;

/**
 * Builds a lunr index over documents (normalised, unique ids, ascending) and their analysed fields.
 * The serialised pipeline is lunr's English search pipeline (stop-word filter, stemmer), so
 * `lunr.Index.load` gives an index that analyses English queries as English text was analysed
 * (other languages' terms carry their language, see languages.ts).
 */
export function buildLunrSegment(sorted: readonly TextDocument[], analyzed: readonly AnalyzedDocument[] = sorted.map(analyzeDocument)): BuiltLunrSegment {
  const builder = new lunr.Builder();
  builder.tokenizer = termTokenizer;
  builder.searchPipeline.add(lunr.stopWordFilter, lunr.stemmer);
  builder.ref('ref');
  INDEX_FIELDS.forEach((field, f) => builder.field(field.name, { boost: field.boost, extractor: (record: object) => (record as { fields: AnalyzedDocument }).fields[f].terms }));
  sorted.forEach((doc, ordinal) => builder.add({ ref: String(doc.id), fields: analyzed[ordinal] }));
  const index = builder.build();
  return { docIds: sorted.map((doc) => doc.id), lunr: index.toJSON() as unknown as LunrIndexJson };
}
