/**
 * Errors a search request can answer with, in the manner of fastify's `createError`: a `code`, a
 * `statusCode` (fastify's error handler sends both with the message), a message for people.
 */
export class SearchRequestError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: string,
    message: string,
    statusCode = 400,
  ) {
    super(message);
    this.name = 'SearchRequestError';
    this.statusCode = statusCode;
  }
}

/** A filter names a value no indexed page has (`lang=xx`, an unknown host or section). */
export const unknownFacetValue = (facet: string, value: string, known: readonly string[]) =>
  new SearchRequestError(
    'LSE_UNKNOWN_FACET_VALUE',
    `unknown ${facet} '${value.slice(0, 100)}'; the ${facet} values of this site are: ${known.length > 0 ? known.slice(0, 200).join(', ') : '(none yet)'}`,
  );
