/**
 * Text indexes in temporary directories, closed and removed after each test of the file that
 * calls this (one thread, no background merges unless a test asks).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { TextIndex, type TextIndexOptions } from '../../indexer/text-index/text-index.ts';

export function tempIndexes(prefix: string): { tempDir(): Promise<string>; openIndex(dir: string, options?: TextIndexOptions): Promise<TextIndex> } {
  const directories: string[] = [];
  const indexes: TextIndex[] = [];
  afterEach(async () => {
    await Promise.all(indexes.splice(0).map((index) => index.close()));
    await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return {
    async tempDir() {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      directories.push(dir);
      return dir;
    },
    async openIndex(dir, options = {}) {
      const index = await TextIndex.open(dir, { workers: 0, autoMerge: false, ...options });
      indexes.push(index);
      return index;
    },
  };
}
