/**
 * One merged segment, from source segments on disk to files and postings (run in a worker, or
 * inline for a pool of size 0). Nothing is analysed again: the postings are merged
 * (postings-merge.ts), and each live document's stored line is copied with its body (compressed
 * or raw, never inflated here) and definitions, their byte offsets moved to where they now lie
 * in the merged text file; the postings file is written as it is merged
 * (merged-postings-writer.ts). Files are
 * written as segment-files.ts writes them: documents, texts, then postings, each a temporary file
 * fsynced and renamed; the manifest that names the segment is written later by the index.
 */
import { closeSync, openSync } from 'node:fs';
import { AtomicFileWriter } from './atomic-file.ts';
import { IndexCorruptError } from './errors.ts';
import { writeMergedPostings } from './merged-postings-writer.ts';
import { planMerge, type MergeSource } from './postings-merge.ts';
import { postingsFilePath, readSegment, type StoredSegment } from './segment-files.ts';
import { documentsFilePath, encodeDocument, readExactly, textFilePath, type DocumentHead, type DocumentToStore } from './stored-documents.ts';

export interface MergeSourceSpec {
  name: string;
  /** Ordinals of the source's documents to leave out (deleted when the merge started). */
  deletedOrdinals: number[];
}

export async function mergeAndWriteSegment(directory: string, name: string, specs: readonly MergeSourceSpec[]): Promise<void> {
  const stored = await Promise.all(specs.map((spec) => readSegment(directory, spec.name)));
  const sources: MergeSource[] = stored.map((segment, i) => {
    const deleted = new Uint8Array(segment.postings.docIds.length);
    for (const ordinal of specs[i].deletedOrdinals) deleted[ordinal] = 1;
    return { postings: segment.postings, deleted };
  });
  const plan = planMerge(name, sources);
  const docOffsets = copyDocuments(directory, name, specs, stored, plan.sourceOf, plan.sourceOrdinal);
  // Written as merged: the merged postings are never whole in memory beside their sources.
  const postingsFile = new AtomicFileWriter(postingsFilePath(directory, name));
  try {
    writeMergedPostings(plan, docOffsets, postingsFile);
    postingsFile.commit();
  } catch (error) {
    postingsFile.abort();
    throw error;
  }
}

/** Writes the merged documents and texts files; returns the byte offset of each line plus the end. */
function copyDocuments(directory: string, name: string, specs: readonly MergeSourceSpec[], stored: readonly StoredSegment[], sourceOf: Int32Array, sourceOrdinal: Int32Array): number[] {
  const lines = new AtomicFileWriter(documentsFilePath(directory, name));
  const texts = new AtomicFileWriter(textFilePath(directory, name));
  const documentFds: number[] = [];
  const textFds: Array<number | null> = [];
  const decoder = new TextDecoder();
  const offsets = [0];
  try {
    for (const spec of specs) {
      documentFds.push(openSync(documentsFilePath(directory, spec.name), 'r'));
      textFds.push(openOptional(textFilePath(directory, spec.name)));
    }
    for (let o = 0; o < sourceOf.length; o++) {
      const s = sourceOf[o];
      const { docOffsets } = stored[s];
      const ordinal = sourceOrdinal[o];
      const source = specs[s].name;
      const line = decoder.decode(readExactly(documentFds[s], docOffsets[ordinal], docOffsets[ordinal + 1] - docOffsets[ordinal], source));
      lines.append(moveBodyInPlace(line, textFds[s], source, texts) ?? moveParsed(JSON.parse(line) as DocumentHead, textFds[s], source, texts));
      offsets.push(lines.size);
    }
    lines.commit();
    texts.commit();
  } catch (error) {
    lines.abort();
    texts.abort();
    throw error;
  } finally {
    for (const fd of [...documentFds, ...textFds]) if (fd !== null) closeSync(fd);
  }
  return offsets;
}

/**
 * The fast path of moveBody, without parsing the line: `"body":[…]` and `"defined":[…]` are the
 * line's last keys but `checkpoints` (encodeDocument writes them after every other field), and
 * `,"body":[` cannot occur inside a JSON string (a quote there is escaped), so the last
 * occurrence is the key. Undefined for a line it cannot read this way.
 */
function moveBodyInPlace(line: string, textFd: number | null, source: string, texts: AtomicFileWriter): Uint8Array | undefined {
  const bodyKey = line.lastIndexOf(BODY_KEY);
  if (bodyKey < 0 || textFd === null) return undefined;
  const bodyStart = bodyKey + BODY_KEY.length;
  const bodyEnd = line.indexOf(']', bodyStart);
  const body = line.slice(bodyStart, bodyEnd).split(',').map(Number);
  // Raw ([offset, bytes, chars]) or compressed (more entries): either way the second is the stored length.
  if (body.length < 3 || !body.every(Number.isSafeInteger)) return undefined;
  const definedKey = line.lastIndexOf(DEFINED_KEY);
  let defined: number[] | null = null;
  if (definedKey > bodyEnd) {
    defined = line.slice(definedKey + DEFINED_KEY.length, line.indexOf(']', definedKey)).split(',').map(Number);
    if (defined.length < 2 || !defined.every(Number.isSafeInteger)) return undefined;
  }
  const [at, bytes] = body;
  // Only the offset moves: a compressed body's block lengths are relative to it.
  let moved = `${line.slice(0, bodyStart)}${texts.size}${line.slice(line.indexOf(',', bodyStart), defined ? definedKey : undefined)}`;
  texts.append(readExactly(textFd, at, bytes, source));
  if (defined) {
    const [from, length] = defined;
    moved += `${DEFINED_KEY}${texts.size}${line.slice(line.indexOf(',', definedKey + DEFINED_KEY.length))}`;
    texts.append(readExactly(textFd, from, length, source));
  }
  return encoder.encode(moved.endsWith('\n') ? moved : `${moved}\n`);
}

const BODY_KEY = ',"body":[';
const DEFINED_KEY = ',"defined":[';

function moveParsed(head: DocumentHead, textFd: number | null, source: string, texts: AtomicFileWriter): Uint8Array {
  return head.body ? moveBody(head, textFd, source, texts) : encodeEarlierLayout(head, texts);
}

/** Copies a head's body and definitions to the end of the merged texts; its line with the new offsets. */
function moveBody(head: DocumentHead, textFd: number | null, source: string, texts: AtomicFileWriter): Uint8Array {
  if (textFd === null) throw new IndexCorruptError(`the texts of segment ${source} are missing`);
  const [at, bytes] = head.body!;
  const moved: DocumentHead = { ...head, body: [texts.size, ...head.body!.slice(1)] };
  texts.append(readExactly(textFd, at, bytes, source));
  if (head.defined) {
    const [from, length] = head.defined;
    moved.defined = [texts.size, ...head.defined.slice(1)];
    texts.append(readExactly(textFd, from, length, source));
  }
  return encoder.encode(`${JSON.stringify(moved)}\n`);
}

/** A line of the layout before text files (body and definitions in the line), written in today's. */
function encodeEarlierLayout(head: DocumentHead, texts: AtomicFileWriter): Uint8Array {
  const { text, checkpoints, definitions, definitionPositions, defined: _defined, body: _body, ...rest } = head;
  const doc: DocumentToStore = { ...rest, text: text ?? '' };
  if (checkpoints?.length) doc.checkpoints = checkpoints;
  if (definitions?.length) {
    doc.definitions = definitions;
    if (definitionPositions) doc.definitionPositions = definitionPositions;
  }
  const encoded = encodeDocument(doc, texts.size);
  for (const chunk of encoded.texts) texts.append(chunk);
  return encoded.line;
}

function openOptional(path: string): number | null {
  try {
    return openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new IndexCorruptError(`cannot open ${path}: ${(error as Error).message}`, { cause: error });
  }
}

const encoder = new TextEncoder();
