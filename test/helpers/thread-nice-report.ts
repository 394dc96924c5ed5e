// A child process for the thread priority test: the nice value of each of its threads (Linux
// /proc) at a start, after the segment builder pool built a segment (its worker stays, idle), and
// after lowerHelperThreads; printed as JSON.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lowerHelperThreads } from '../../indexer/thread-priority.ts';
import { SegmentBuilderPool } from '../../indexer/text-index/segment-builder-pool.ts';

/** Thread id → nice value (field 19 of /proc/self/task/TID/stat, after the command's parenthesis). */
function niceByThread(): Record<string, number> {
  const nice: Record<string, number> = {};
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      nice[tid] = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return nice;
}

const directory = mkdtempSync(join(tmpdir(), 'lse-thread-nice-'));
const start = niceByThread();
const pool = new SegmentBuilderPool(1);
await pool.build(directory, 'seg-000001', [{ id: 1, url: 'https://example.org/a', host: 'example.org', title: 'A page', headings: [], text: 'Some words of a page' }]);
const built = niceByThread();
const lowered = lowerHelperThreads(10);
const after = niceByThread();
await pool.close();
rmSync(directory, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ main: String(process.pid), start, built, lowered, after }));
