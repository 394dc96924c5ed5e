/**
 * A segment on disk is three files under `<dataDir>/index/`, written in this order:
 * - `<name>.docs.jsonl` and `<name>.text.bin` — the document store (stored-documents.ts);
 * - `<name>.postings.bin` — the query-time postings and the documents' byte offsets, which is
 *   what opening the index reads (postings-file.ts).
 * Stored documents are read on demand (snippets need ten of them, not all). Earlier versions also
 * wrote `<name>.lunr.json` (a lunr index no query read); such files are removed with their segment.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';
import type { CompactSegment } from './compact-segment.ts';
import { IndexCorruptError } from './errors.ts';
import { decodePostings, encodePostings, openPostings } from './postings-file.ts';
import type { PostingsCache } from './postings-cache.ts';
import { documentsFilePath, encodeDocuments, textFilePath, type DocumentToStore } from './stored-documents.ts';

/** Every file a segment may have on disk (`.lunr.json`: written by earlier versions). */
export const SEGMENT_FILE_SUFFIXES = ['.docs.jsonl', '.text.bin', '.lunr.json', '.postings.bin'] as const;

export const postingsFilePath = (directory: string, name: string) => join(directory, `${name}.postings.bin`);

/** A segment as the index holds it: term offsets and lengths in memory, postings and documents on disk. */
export interface StoredSegment {
  postings: CompactSegment;
  /** Byte offset of each stored document in the documents file, plus the end. */
  docOffsets: Float64Array;
}

/** Writes the files of a segment atomically (postings last). */
export async function writeSegment(directory: string, postings: CompactSegment, documents: readonly DocumentToStore[]): Promise<StoredSegment> {
  const { name } = postings;
  const { lines, offsets, texts } = encodeDocuments(documents);
  await writeFileAtomic(documentsFilePath(directory, name), lines);
  await writeFileAtomic(textFilePath(directory, name), texts);
  await writeFileAtomic(postingsFilePath(directory, name), encodePostings(postings, offsets));
  return { postings, docOffsets: Float64Array.from(offsets) };
}

/**
 * Opens a segment for queries: its postings stay in the file and are read a term at a time
 * (paged-postings.ts), through `cache`.
 */
export function openSegment(directory: string, name: string, cache: PostingsCache): StoredSegment {
  const path = postingsFilePath(directory, name);
  return checked(openPostings(path, cache), name, path);
}

/** Reads a segment's postings whole (merges read their sources so). */
export async function readSegment(directory: string, name: string): Promise<StoredSegment> {
  const path = postingsFilePath(directory, name);
  let bytes: Uint8Array;
  try {
    // Into a buffer of its own, so that the arrays are views of it and not a second copy.
    const file = await open(path, 'r');
    try {
      bytes = new Uint8Array((await file.stat()).size);
      const { bytesRead } = await file.read(bytes, 0, bytes.length, 0);
      if (bytesRead !== bytes.length) throw new Error('read short');
    } finally {
      await file.close();
    }
  } catch (error) {
    throw new IndexCorruptError(`cannot read segment ${path}: ${(error as Error).message}`, { cause: error });
  }
  return checked(decodePostings(bytes, path), name, path);
}

function checked(segment: StoredSegment, name: string, path: string): StoredSegment {
  if (segment.postings.name !== name) throw new IndexCorruptError(`${path} holds segment ${segment.postings.name}, not ${name}`);
  if (segment.docOffsets.length !== segment.postings.docIds.length + 1) throw new IndexCorruptError(`${path} has document offsets that do not match its documents`);
  return segment;
}
