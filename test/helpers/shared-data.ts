/**
 * Where the shared reference data lives: `../shared/data` beside the clone (CI puts it there).
 * Tests that need it are skipped, with a message, when it is absent; it is never copied in.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const sharedDataDir = resolve(repoRoot, '..', 'shared', 'data');
export const hasSharedData = existsSync(join(sharedDataDir, 'graphs'));
export const sharedDataSkipReason = `shared reference data not found at ${sharedDataDir}: skipped`;

export function sharedGraphFile(graph: string, kind: 'nodes' | 'edges' | 'pagerank'): string {
  return join(sharedDataDir, 'graphs', `${graph}.${kind}.tsv.gz`);
}
