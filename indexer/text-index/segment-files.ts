/**
 * A segment on disk is two files under `<dataDir>/index/`:
 * - `<name>.docs.jsonl` — the document store: one JSON document per line, in ordinal order;
 * - `<name>.segment.json` — format tag, page ids, byte offsets of the stored documents, and the
 *   lunr index JSON (`index.toJSON()`), which also loads with plain `lunr.Index.load`.
 * The documents file is written first, so a segment file never names documents that are not there.
 * Stored documents are read on demand (snippets need ten of them, not all).
 */
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';
import { compactSegment, type CompactSegment } from './compact-segment.ts';
import type { TextDocument } from './document.ts';
import { IndexCorruptError } from './errors.ts';
import type { BuiltLunrSegment, LunrIndexJson } from './lunr-segment.ts';

export const SEGMENT_FORMAT = 'lse-text-segment/1';

export interface SegmentFileJson {
  format: typeof SEGMENT_FORMAT;
  name: string;
  docIds: number[];
  /** Byte offset of each stored document in the documents file, plus its end. */
  docOffsets: number[];
  lunr: LunrIndexJson;
}

export const segmentFilePath = (directory: string, name: string) => join(directory, `${name}.segment.json`);
export const documentsFilePath = (directory: string, name: string) => join(directory, `${name}.docs.jsonl`);

/** Serialises the stored documents (in the segment's ordinal order) and returns bytes and offsets. */
export function encodeDocuments(docIds: readonly number[], documents: readonly TextDocument[]): { bytes: Uint8Array; offsets: number[] } {
  const byId = new Map(documents.map((doc) => [doc.id, doc]));
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const offsets: number[] = [0];
  let total = 0;
  for (const id of docIds) {
    const doc = byId.get(id);
    if (!doc) throw new IndexCorruptError(`document ${id} is missing from the segment's documents`);
    const line = encoder.encode(`${JSON.stringify(doc)}\n`);
    chunks.push(line);
    total += line.length;
    offsets.push(total);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, offsets };
}

/** Writes both files of a segment atomically (documents first) and returns its query-time form. */
export async function writeSegment(
  directory: string,
  name: string,
  built: BuiltLunrSegment,
  documents: readonly TextDocument[],
): Promise<StoredSegment> {
  const { bytes, offsets } = encodeDocuments(built.docIds, documents);
  await writeFileAtomic(documentsFilePath(directory, name), bytes);
  const file: SegmentFileJson = { format: SEGMENT_FORMAT, name, docIds: built.docIds, docOffsets: offsets, lunr: built.lunr };
  await writeFileAtomic(segmentFilePath(directory, name), JSON.stringify(file));
  return { postings: compactSegment(name, built.docIds, built.lunr), docOffsets: Float64Array.from(offsets) };
}

/** A segment as the index holds it: postings in memory, documents on disk. */
export interface StoredSegment {
  postings: CompactSegment;
  docOffsets: Float64Array;
}

export async function readSegment(directory: string, name: string): Promise<StoredSegment> {
  const path = segmentFilePath(directory, name);
  let file: SegmentFileJson;
  try {
    file = JSON.parse(await readFile(path, 'utf8')) as SegmentFileJson;
  } catch (error) {
    throw new IndexCorruptError(`cannot read segment ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (file.format !== SEGMENT_FORMAT || file.name !== name || !Array.isArray(file.docIds) || !file.lunr) {
    throw new IndexCorruptError(`segment ${path} is not a ${SEGMENT_FORMAT} file named ${name}`);
  }
  if (file.docOffsets.length !== file.docIds.length + 1) {
    throw new IndexCorruptError(`segment ${path} has ${file.docOffsets.length} document offsets for ${file.docIds.length} documents`);
  }
  return { postings: compactSegment(name, file.docIds, file.lunr), docOffsets: Float64Array.from(file.docOffsets) };
}

/** Reads stored documents by ordinal (one positioned read each). */
export async function readStoredDocuments(directory: string, segment: StoredSegment, ordinals: readonly number[]): Promise<TextDocument[]> {
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
    const result: TextDocument[] = [];
    for (const ordinal of ordinals) {
      const start = segment.docOffsets[ordinal];
      const length = segment.docOffsets[ordinal + 1] - start;
      const buffer = new Uint8Array(length);
      const { bytesRead } = await handle.read(buffer, 0, length, start);
      if (bytesRead !== length) throw new IndexCorruptError(`documents file of segment ${segment.postings.name} is truncated`);
      result.push(JSON.parse(decoder.decode(buffer)) as TextDocument);
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
    .map((line) => JSON.parse(line) as TextDocument);
}
