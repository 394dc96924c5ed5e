/**
 * One segment, from documents to files on disk and postings in memory (run in a worker or inline).
 * No lunr index is built: queries run on the postings, and lunr's builder took most of the build.
 */
import type { TextDocument } from './document.ts';
import { buildPostings } from './postings-builder.ts';
import { analyzeDocument } from './segment-analysis.ts';
import { writeSegment, type StoredSegment } from './segment-files.ts';

export async function buildAndWriteSegment(directory: string, name: string, documents: readonly TextDocument[]): Promise<StoredSegment> {
  const sorted = [...documents].sort((a, b) => a.id - b.id);
  const analyzed = sorted.map(analyzeDocument);
  const postings = buildPostings(name, sorted, analyzed);
  // Stored with each document: where to start tokenising for a snippet (segment-analysis.ts).
  // And where each definition starts, as a word position (passage.ts).
  const stored = sorted.map((doc, i) => {
    const { checkpoints, definitionPositions } = analyzed[i];
    if (!checkpoints?.length && !definitionPositions) return doc;
    return { ...doc, ...(checkpoints?.length ? { checkpoints } : {}), ...(definitionPositions ? { definitionPositions } : {}) };
  });
  return writeSegment(directory, postings, stored);
}
