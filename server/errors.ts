/**
 * The errors of the server, its jobs and the command line, made the way fastify makes its own
 * (`@fastify/error`): a stable `code` that callers and tests match on, an HTTP `statusCode` for
 * when the error reaches an API response, and a message with the details. The settings have theirs
 * in config/load-settings.ts (`LSE_SETTINGS_INVALID`).
 */
import createError from '@fastify/error';

/** A schedule whose cron expression node-cron rejects (setting name, expression). */
export const InvalidCronError = createError<'LSE_SCHEDULE_INVALID_CRON', 400, [string, string]>('LSE_SCHEDULE_INVALID_CRON', 'schedules.%s: "%s" is not a valid cron expression', 400);

/** Two jobs submitted under one id. */
export const JobExistsError = createError<'LSE_JOB_EXISTS', 409, [string]>('LSE_JOB_EXISTS', 'job %s already exists', 409);

/** A round asked to resume whose stored records are gone. */
export const RoundNotResumableError = createError<'LSE_ROUND_NOT_RESUMABLE', 409, [string]>('LSE_ROUND_NOT_RESUMABLE', 'round %s cannot be resumed: its records are missing', 409);

/** A round on a data directory without local pages; the message says what to do. */
export const NoLocalPagesError = createError<'LSE_ROUND_NO_LOCAL_PAGES', 409, [string]>('LSE_ROUND_NO_LOCAL_PAGES', '%s', 409);

/** A round naming a selector or estimate the product does not have (what, name). */
export const UnknownRoundMethodError = createError<'LSE_ROUND_UNKNOWN_METHOD', 400, [string, string]>('LSE_ROUND_UNKNOWN_METHOD', 'unknown %s "%s"', 400);

/** A crawl asked of a data directory that remembers neither a URL scope nor a topic. */
export const UnscopedDataDirError = createError<'LSE_DATA_DIR_UNSCOPED', 409, []>(
  'LSE_DATA_DIR_UNSCOPED',
  'this data directory remembers neither a URL scope nor a topic, so a crawl cannot tell local pages: crawl it with lse crawl --scope … or --topic … first',
  409,
);

/** A search of content fetched with credentials by a searcher who has not signed in (what to do). */
export const SignInRequiredError = createError<'LSE_SIGN_IN_REQUIRED', 401, [string]>('LSE_SIGN_IN_REQUIRED', 'this search covers pages that are not public: %s', 401);

/** The worker thread computing the local PageRank failed or exited without an answer (why). */
export const LocalPageRankWorkerError = createError<'LSE_LOCAL_PAGERANK_WORKER_FAILED', 500, [string]>('LSE_LOCAL_PAGERANK_WORKER_FAILED', 'local PageRank worker failed: %s', 500);
