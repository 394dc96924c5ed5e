/** The text index's public surface (see text-index.ts for the design). */
export { TextIndex, type TextIndexOptions, type IndexChanges, type IndexInfo, type MergeReport, type SegmentInfo } from './text-index.ts';
export { IndexHandle, type SegmentSet } from './segment-set.ts';
export { type SearchOptions, type SearchResult, MAX_LIMIT } from './search.ts';
export { MatchCollector } from './match-collector.ts';
export { type SearchHit, type StaticPrior } from './scorer.ts';
export { type MatchMode, parseUserQuery } from './query-parser.ts';
export { snippet, escapeHtml, type SnippetOptions } from './snippet.ts';
export { type TextDocument, INDEX_FIELDS, DEFAULT_MAX_TEXT_CHARS, urlWords } from './document.ts';
export { indexableDocuments, isIndexablePage, pageToDocument } from './store-adapter.ts';
export { QuerySyntaxError, IndexCorruptError, SegmentBuildError, TextIndexError } from './errors.ts';
export { selectMerges, tierOf, DEFAULT_MERGE_POLICY, type MergePolicyOptions } from './merge-policy.ts';
export { catchUpWithStore, type CatchUpOptions, type CatchUpReport } from './catch-up.ts';
