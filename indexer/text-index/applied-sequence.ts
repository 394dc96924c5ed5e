/**
 * What the index has applied of the store's page journal: the store's page-write sequence
 * (CrawlStore.pageWriteSequence) up to which every written page is known to be in the index in
 * its stored version. Kept beside the manifest; a missing or unreadable file, or one written with
 * another analysis (INDEX_ANALYSIS), means "unknown", and the catch-up then compares every page.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';
import { INDEX_ANALYSIS } from './document-version.ts';

const APPLIED_FILE = 'store-sequence.json';
const FORMAT = 'lse-store-sequence/1';

export async function readAppliedSequence(indexDirectory: string): Promise<number | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(indexDirectory, APPLIED_FILE), 'utf8')) as { format?: unknown; sequence?: unknown; analysis?: unknown };
    return parsed.format === FORMAT && parsed.analysis === INDEX_ANALYSIS && Number.isSafeInteger(parsed.sequence) && (parsed.sequence as number) >= 0 ? (parsed.sequence as number) : undefined;
  } catch {
    return undefined;
  }
}

export async function writeAppliedSequence(indexDirectory: string, sequence: number): Promise<void> {
  await writeFileAtomic(join(indexDirectory, APPLIED_FILE), JSON.stringify({ format: FORMAT, sequence, analysis: INDEX_ANALYSIS }));
}

/**
 * Records `to` as applied when the index had applied `from`: the caller applied exactly the pages
 * written between the two (an import holding the store alone). Otherwise the record stays, and the
 * next catch-up checks the journal from there.
 */
export async function advanceAppliedSequence(indexDirectory: string, from: number, to: number): Promise<void> {
  if ((await readAppliedSequence(indexDirectory)) === from) await writeAppliedSequence(indexDirectory, to);
}
