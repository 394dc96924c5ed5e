/**
 * Builds one segment's lunr index. Pure and synchronous: the worker and the main thread call the
 * same function, so a worker-built segment is the main-thread one byte for byte.
 *
 * Term frequencies: lunr keeps them only inside its precomputed, per-segment BM25 weights. We
 * whitelist the tokenizer's `index` metadata (token ordinals), so every posting carries its
 * occurrences: tf is their count, field lengths are sums of tf, and phrases can check adjacency.
 */
import lunr from 'lunr';
import { indexPipelineFunctions, lunrTokenizer } from './analysis.ts';
import { INDEX_FIELDS, toLunrFields, type TextDocument } from './document.ts';

/** lunr's serialised index (the shape `lunr.Index.prototype.toJSON` returns). */
export interface LunrIndexJson {
  version: string;
  fields: string[];
  fieldVectors: Array<[string, number[]]>;
  invertedIndex: Array<[string, LunrPostingJson]>;
  pipeline: string[];
}

/** term → field → doc ref → metadata (`index`: the term's token ordinals in that field). */
export type LunrPostingJson = { _index: number } & Record<string, Record<string, { index?: number[] }> | number>;

export interface BuiltLunrSegment {
  /** Page ids in ordinal order (ascending). */
  docIds: number[];
  lunr: LunrIndexJson;
}

/** Builds a lunr index over documents (already normalised; ids unique). */
export function buildLunrSegment(documents: readonly TextDocument[]): BuiltLunrSegment {
  const sorted = [...documents].sort((a, b) => a.id - b.id);
  const builder = new lunr.Builder();
  builder.tokenizer = lunrTokenizer;
  builder.pipeline.add(...indexPipelineFunctions());
  builder.searchPipeline.add(...indexPipelineFunctions());
  builder.metadataWhitelist = ['index'];
  builder.ref('ref');
  for (const field of INDEX_FIELDS) builder.field(field.name, { boost: field.boost });
  for (const doc of sorted) builder.add(toLunrFields(doc));
  const index = builder.build();
  return { docIds: sorted.map((doc) => doc.id), lunr: index.toJSON() as unknown as LunrIndexJson };
}
