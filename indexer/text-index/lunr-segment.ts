/**
 * Builds one segment's lunr index. Pure and synchronous: the worker and the main thread call the
 * same function, so a worker-built segment is the main-thread one byte for byte.
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

/** term → field → doc ref → metadata (empty: no metadata is whitelisted). */
export type LunrPostingJson = { _index: number } & Record<string, Record<string, object> | number>;

export interface BuiltLunrSegment {
  /** Page ids in ordinal order (ascending). */
  docIds: number[];
  lunr: LunrIndexJson;
}

/** Builds a lunr index over documents (normalised, unique ids, ascending). */
export function buildLunrSegment(sorted: readonly TextDocument[]): BuiltLunrSegment {
  const builder = new lunr.Builder();
  builder.tokenizer = lunrTokenizer;
  builder.pipeline.add(...indexPipelineFunctions());
  builder.searchPipeline.add(...indexPipelineFunctions());
  builder.ref('ref');
  for (const field of INDEX_FIELDS) builder.field(field.name, { boost: field.boost });
  for (const doc of sorted) builder.add(toLunrFields(doc));
  const index = builder.build();
  return { docIds: sorted.map((doc) => doc.id), lunr: index.toJSON() as unknown as LunrIndexJson };
}
