import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileReadsSoFar, readCounted } from '../indexer/text-index/file-reads.ts';

const dir = mkdtempSync(join(tmpdir(), 'lse-file-reads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the index’s file reads, counted for the slow-search log', () => {
  it('counts each read, the bytes it returned and its time', () => {
    const path = join(dir, 'ten');
    writeFileSync(path, '0123456789');
    const fd = openSync(path, 'r');
    try {
      const before = fileReadsSoFar();
      const bytes = new Uint8Array(8);
      expect(readCounted(fd, bytes, 0, 8, 4)).toBe(6);
      expect(Buffer.from(bytes.subarray(0, 6)).toString()).toBe('456789');
      expect(readCounted(fd, bytes, 2, 3, 0)).toBe(3);
      const after = fileReadsSoFar();
      expect(after.count - before.count).toBe(2);
      expect(after.bytes - before.bytes).toBe(9);
      expect(after.ms).toBeGreaterThanOrEqual(before.ms);
      // A copy: what the caller holds does not move on.
      expect(before).not.toBe(after);
      readCounted(fd, bytes, 0, 1, 0);
      expect(after.count - before.count).toBe(2);
    } finally {
      closeSync(fd);
    }
  });
});
