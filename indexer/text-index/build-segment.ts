/** One segment, from documents to files on disk and postings in memory (run in a worker or inline). */
import { buildLunrSegment } from './lunr-segment.ts';
import { writeSegment, type StoredSegment } from './segment-files.ts';
import type { TextDocument } from './document.ts';

export async function buildAndWriteSegment(directory: string, name: string, documents: readonly TextDocument[]): Promise<StoredSegment> {
  const built = buildLunrSegment(documents);
  return writeSegment(directory, name, built, documents);
}
