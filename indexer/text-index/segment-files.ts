/**
 * A segment on disk is two files under `<dataDir>/index/`, written in this order:
 * - `<name>.docs.jsonl` — the document store: one JSON document per line, in ordinal order;
 * - `<name>.postings.bin` — the query-time postings and the documents' byte offsets, which is
 *   what opening the index reads (postings-file.ts).
 * Stored documents are read on demand (snippets need ten of them, not all). Earlier versions also
 * wrote `<name>.lunr.json` (a lunr index no query read); such files are removed with their segment.
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';
import type { CompactSegment } from './compact-segment.ts';
import type { TextDocument } from './document.ts';
import { IndexCorruptError } from './errors.ts';
import { decodePostings, encodePostings } from './postings-file.ts';

/** Every file a segment may have on disk (`.lunr.json`: written by earlier versions). */
export const SEGMENT_FILE_SUFFIXES = ['.docs.jsonl', '.lunr.json', '.postings.bin'] as const;

export const postingsFilePath = (directory: string, name: string) => join(directory, `${name}.postings.bin`);
export const documentsFilePath = (directory: string, name: string) => join(directory, `${name}.docs.jsonl`);

/** A segment as the index holds it: postings in memory, documents on disk. */
export interface StoredSegment {
  postings: CompactSegment;
  /** Byte offset of each stored document in the documents file, plus the end. */
  docOffsets: Float64Array;
}

/** Serialises the stored documents (in ordinal order) and returns bytes and offsets. */
export function encodeDocuments(documents: readonly TextDocument[]): { bytes: Uint8Array; offsets: number[] } {
  const encoder = new TextEncoder();
  const chunks = documents.map((doc) => encoder.encode(`${JSON.stringify(doc)}\n`));
  const offsets: number[] = [0];
  let total = 0;
  for (const chunk of chunks) offsets.push((total += chunk.length));
  const bytes = new Uint8Array(total);
  chunks.forEach((chunk, i) => bytes.set(chunk, offsets[i]));
  return { bytes, offsets };
}

/** Writes the files of a segment atomically (postings last). */
export async function writeSegment(directory: string, postings: CompactSegment, documents: readonly TextDocument[]): Promise<StoredSegment> {
  const { name } = postings;
  const { bytes, offsets } = encodeDocuments(documents);
  await writeFileAtomic(documentsFilePath(directory, name), bytes);
  await writeFileAtomic(postingsFilePath(directory, name), encodePostings(postings, offsets));
  return { postings, docOffsets: Float64Array.from(offsets) };
}

export async function readSegment(directory: string, name: string): Promise<StoredSegment> {
  const path = postingsFilePath(directory, name);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new IndexCorruptError(`cannot read segment ${path}: ${(error as Error).message}`, { cause: error });
  }
  const segment = decodePostings(bytes, path);
  if (segment.postings.name !== name) throw new IndexCorruptError(`${path} holds segment ${segment.postings.name}, not ${name}`);
  if (segment.docOffsets.length !== segment.postings.docIds.length + 1) throw new IndexCorruptError(`${path} has document offsets that do not match its documents`);
  return segment;
}

/** A document as its segment stores it: with the body's tokenisation checkpoints. */
export type StoredDocument = TextDocument & { checkpoints?: number[] };

/** The document without what only the index uses. */
export function publicDocument(stored: StoredDocument): TextDocument {
  if (stored.checkpoints === undefined) return stored;
  const { checkpoints: _checkpoints, ...doc } = stored;
  return doc;
}

/** Reads stored documents by ordinal (one positioned read each). */
export async function readStoredDocuments(directory: string, segment: StoredSegment, ordinals: readonly number[]): Promise<StoredDocument[]> {
  if (ordinals.length === 0) return [];
  const path = documentsFilePath(directory, segment.postings.name);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new IndexCorruptError(`cannot open the documents of segment ${segment.postings.name}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const decoder = new TextDecoder();
    const result: StoredDocument[] = [];
    for (const ordinal of ordinals) {
      const start = segment.docOffsets[ordinal];
      const length = segment.docOffsets[ordinal + 1] - start;
      const buffer = new Uint8Array(length);
      const { bytesRead } = await handle.read(buffer, 0, length, start);
      if (bytesRead !== length) throw new IndexCorruptError(`documents file of segment ${segment.postings.name} is truncated`);
      result.push(JSON.parse(decoder.decode(buffer)) as StoredDocument);
    }
    return result;
  } finally {
    await handle.close();
  }
}

/** Every stored document of a segment, in ordinal order (merges rebuild from these). */
export async function readAllStoredDocuments(directory: string, name: string): Promise<TextDocument[]> {
  const text = await readFile(documentsFilePath(directory, name), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => publicDocument(JSON.parse(line) as StoredDocument));
}
