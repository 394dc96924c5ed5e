/**
 * Analytics records reach their day's file without a flush (a short while after they are made,
 * written together rather than one append a search), in order and each in its own day, and a
 * server opened again reads every one of them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchAnalytics } from '../server/search-admin/analytics.ts';

let dataDir: string;
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const lines = (day: string) => readFileSync(join(dataDir, 'analytics', `${day}.jsonl`), 'utf8').trim().split('\n').map((line) => JSON.parse(line));

describe('analytics writes', () => {
  it('reach the day files without a flush, in order, each record in its own day', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lse-analytics-writes-'));
    let now = Date.UTC(2026, 10, 26, 23, 59);
    const analytics = await SearchAnalytics.open(dataDir, { retentionDays: 30, maxRecordsPerDay: 10_000, now: () => now });
    for (let i = 0; i < 300; i++) analytics.recordSearch(`query ${i}`, undefined, i % 3);
    now = Date.UTC(2026, 10, 27, 0, 1);
    for (let i = 300; i < 350; i++) analytics.recordSearch(`query ${i}`, undefined, 1);
    // No flush: the writes are due a short while after the first record.
    let written: unknown[] = [];
    for (let wait = 0; wait < 100 && written.length < 50; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        written = lines('2026-11-27');
      } catch {
        written = [];
      }
    }
    expect(lines('2026-11-26').map((record) => record.query)).toEqual(Array.from({ length: 300 }, (_, i) => `query ${i}`));
    expect(written.map((record) => (record as { query: string }).query)).toEqual(Array.from({ length: 50 }, (_, i) => `query ${300 + i}`));
    const reopened = await SearchAnalytics.open(dataDir, { retentionDays: 30, maxRecordsPerDay: 10_000, now: () => now });
    expect(reopened.summary(2)).toMatchObject({ searches: 350, zeroResults: 100 });
  });

  it('are all on disk once flushed', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lse-analytics-flush-'));
    const now = Date.UTC(2026, 10, 27, 12);
    const analytics = await SearchAnalytics.open(dataDir, { retentionDays: 30, maxRecordsPerDay: 10_000, now: () => now });
    for (let i = 0; i < 1000; i++) analytics.recordSearch('library', undefined, 4);
    await analytics.flush();
    expect(lines('2026-11-27')).toHaveLength(1000);
  });
});
