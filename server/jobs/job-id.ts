/**
 * Job ids: the kind, the time and a sequence number of this process. The time alone is not unique (a schedule and an
 * admin request can submit in the same millisecond); the time keeps ids apart across restarts, since one data
 * directory is open in one process at a time.
 */
import type { JobKind } from './job-runner.ts';

let sequence = 0;

export function newJobId(kind: JobKind): string {
  return `${kind}-${Date.now().toString(36)}-${(++sequence).toString(36)}`;
}
