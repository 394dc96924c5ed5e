/** Errors of the text index. The server maps QuerySyntaxError to 400; the others are faults. */

/** The user's query cannot be understood (empty, bad lunr syntax, unknown field). */
export class QuerySyntaxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QuerySyntaxError';
  }
}

/** A query longer than the text index reads (query-budget.ts): a 400 with its own code. */
export class QueryTooLongError extends QuerySyntaxError {
  readonly code = 'LSE_QUERY_TOO_LONG';

  constructor(message: string) {
    super(message);
    this.name = 'QueryTooLongError';
  }
}

/** A segment file or the manifest on disk is missing, unreadable or inconsistent. */
export class IndexCorruptError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'IndexCorruptError';
  }
}

/** A segment-building worker failed or exited. */
export class SegmentBuildError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SegmentBuildError';
  }
}

/** The index was used after close(), or a document was malformed. */
export class TextIndexError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TextIndexError';
  }
}
