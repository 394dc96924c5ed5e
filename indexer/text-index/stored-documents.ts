/**
 * The document store of a segment, two files written before its postings:
 * - `<name>.docs.jsonl` — one JSON line per document in ordinal order: every field but the body
 *   text, and where the body lies in the text file (`body: [byte offset, bytes, characters, …]`);
 * - `<name>.text.bin` — the bodies, one after another: UTF-8 compressed in blocks of raw deflate,
 *   or raw where that is not smaller (body-blocks.ts says how the entry tells).
 *
 * Why the body has a file of its own: a snippet needs a few hundred characters near the match,
 * and a body holds up to the text cap (20,000 characters, 60 KB of CJK). With the body inside the
 * JSON line, ten hits read and parsed up to 600 KB per query; now they read ten small lines and
 * ten windows of a few KB. `checkpoints` are [word ordinal, character offset, byte offset]
 * triples of chunk starts, so a window starts at a word boundary without decoding what comes
 * before it.
 *
 * A hit's reads are synchronous: a dozen small positioned reads, mostly from the page cache,
 * take microseconds each, where every asynchronous read is a round trip through libuv's thread
 * pool that costs more than the read itself on a busy machine.
 *
 * A document's definitions (up to 2,000 names) follow its body in the text file, read only for a
 * hit that matched one (`defined` in the line).
 *
 * Segments written before this layout keep the body as `text` in the line and checkpoints as
 * [ordinal, offset] pairs; they are read as they are (and rewritten by the next merge).
 */
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TextDocument } from './document.ts';
import { bodyLayout, encodeBody, encodeDefinitions, readDefinitionBytes, readRawRange, type ReadStored } from './body-blocks.ts';
import type { BodyBlockCache } from './body-block-cache.ts';
import { IndexCorruptError } from './errors.ts';
import { readCounted } from './file-reads.ts';
import { closeWhenCollected } from './paged-postings.ts';

export const documentsFilePath = (directory: string, name: string) => join(directory, `${name}.docs.jsonl`);
export const textFilePath = (directory: string, name: string) => join(directory, `${name}.text.bin`);

/** A document as the builder hands it over: with its body's checkpoints as [word ordinal, character offset] pairs. */
export type DocumentToStore = TextDocument & { checkpoints?: number[]; definitionPositions?: number[] };

/** A stored line: the document without its body (`text` only in lines of the earlier layout). */
export type DocumentHead = Omit<TextDocument, 'text'> & {
  text?: string;
  /**
   * Byte offset in the text file, stored byte length and character length of the body, then for a
   * compressed body its raw byte length and its blocks (body-blocks.ts).
   */
  body?: number[];
  /** Triples [ordinal, char, byte] (pairs [ordinal, char] in lines of the earlier layout). */
  checkpoints?: number[];
  /** The body word position of each definition (parallel to `definitions`; in lines of an earlier layout). */
  definitionPositions?: number[];
  /**
   * Where the definitions and their positions lie in the text file, after the body: byte offset
   * and stored length of a JSON `{ definitions, positions }`, then its raw length when it is
   * compressed. Kept out of the line, which every hit reads: a reference page defines up to
   * 2,000 names, and a hit needs them only when it matched one.
   */
  defined?: number[];
};

/** A document's definitions with the body word position where each starts (parallel arrays). */
export interface StoredDefinitions {
  definitions: NonNullable<TextDocument['definitions']>;
  positions: number[];
}

/** Part of a body: its text from character `charStart`, the word ordinal there, and the body's length. */
export interface BodyWindow {
  text: string;
  charStart: number;
  firstIndex: number;
  bodyChars: number;
}

/** Where a window starts and how many bytes it may need: a checkpoint, and a byte limit (undefined: to the body's end). */
export interface WindowRequest {
  checkpoint: Checkpoint;
  maxBytes?: number;
}

export interface Checkpoint {
  index: number;
  char: number;
  byte: number;
}

const encoder = new TextEncoder();
/** One decoder for every read (none streams): made once, not per hit. */
const UTF8 = new TextDecoder();

/** The two files' bytes, and the byte offset of each line in the documents file plus the end. */
export function encodeDocuments(documents: readonly DocumentToStore[]): { lines: Uint8Array; offsets: number[]; texts: Uint8Array } {
  const lineChunks: Uint8Array[] = [];
  const textChunks: Uint8Array[] = [];
  let textBytes = 0;
  for (const doc of documents) {
    const { line, texts } = encodeDocument(doc, textBytes);
    for (const chunk of texts) {
      textChunks.push(chunk);
      textBytes += chunk.length;
    }
    lineChunks.push(line);
  }
  return { lines: concat(lineChunks), offsets: offsetsOf(lineChunks), texts: concat(textChunks) };
}

/** One document's line, and the bytes it appends to the text file at byte `textOffset`. */
export function encodeDocument(doc: DocumentToStore, textOffset: number): { line: Uint8Array; texts: Uint8Array[] } {
  const { text, checkpoints, definitions, definitionPositions, ...rest } = doc;
  const body = encodeBody(encoder.encode(text), text.length);
  const head: DocumentHead = { ...rest, body: [textOffset, ...body.entries] };
  if (checkpoints && checkpoints.length > 0) head.checkpoints = withByteOffsets(text, checkpoints);
  const texts = body.chunks;
  if (definitions && definitions.length > 0) {
    const stored: StoredDefinitions = { definitions, positions: definitionPositions ?? [] };
    const packed = encodeDefinitions(encoder.encode(JSON.stringify(stored)));
    head.defined = [textOffset + body.entries[0], ...packed.entries];
    texts.push(packed.bytes);
  }
  return { line: encoder.encode(`${JSON.stringify(head)}\n`), texts };
}

/** [ordinal, char] pairs → [ordinal, char, byte] triples (one pass over the text). */
function withByteOffsets(text: string, pairs: readonly number[]): number[] {
  const triples: number[] = [];
  let char = 0;
  let byte = 0;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const target = pairs[i + 1];
    byte += utf8Length(text, char, target);
    char = target;
    triples.push(pairs[i], char, byte);
  }
  return triples;
}

function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3; // a lone surrogate is written as U+FFFD, three bytes
  }
  return bytes;
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** A head's checkpoints, read in place (a hit looks at a few of them; no object per checkpoint). */
export interface Checkpoints {
  readonly count: number;
  index(i: number): number;
  char(i: number): number;
  /** The i-th as an object (byte −1 in the earlier layout, whose body is in the line). */
  at(i: number): Checkpoint;
}

/** The checkpoints of a head: triples, or the earlier layout's pairs. */
export function checkpointsOf(head: DocumentHead): Checkpoints {
  const list = head.checkpoints ?? [];
  const step = head.body ? 3 : 2;
  return {
    count: Math.floor(list.length / step),
    index: (i) => list[i * step],
    char: (i) => list[i * step + 1],
    at: (i) => ({ index: list[i * step], char: list[i * step + 1], byte: step === 3 ? list[i * step + 2] : -1 }),
  };
}

/** Reads stored lines and whole bodies by ordinal (merges, inspection). */
export async function readStoredDocuments(directory: string, name: string, docOffsets: ArrayLike<number>, ordinals: readonly number[], open?: OpenDocumentFiles): Promise<TextDocument[]> {
  const heads = await readDocumentHeads(directory, name, docOffsets, ordinals, open);
  const windows = await readBodyWindows(directory, name, heads.map((head) => ({ head, checkpoint: { index: 0, char: 0, byte: 0 } })), open);
  const defined = readDefinitions(directory, name, heads, open);
  return heads.map((head, i) => publicDocument(head, windows[i].text, defined[i]));
}

/** The stored definitions of each head (null when it has none), read from the text file. */
export function readDefinitions(directory: string, name: string, heads: readonly DocumentHead[], open?: OpenDocumentFiles): Array<StoredDefinitions | null> {
  const found: Array<StoredDefinitions | null> = heads.map((head) => (head.definitions ? { definitions: head.definitions, positions: head.definitionPositions ?? [] } : null));
  if (!heads.some((head) => head.defined)) return found;
  withFile(textFilePath(directory, name), `the texts of segment ${name}`, (fd) => {
    const read: ReadStored = (position, length) => readExactly(fd, position, length, name);
    heads.forEach((head, i) => {
      if (head.defined) found[i] = parseDefinitions(UTF8.decode(readDefinitionBytes(head.defined, read, name)), name);
    });
  }, open);
  return found;
}

function parseDefinitions(json: string, name: string): StoredDefinitions {
  try {
    const parsed = JSON.parse(json) as StoredDefinitions;
    if (Array.isArray(parsed.definitions) && Array.isArray(parsed.positions)) return parsed;
  } catch {
    // Reported below.
  }
  throw new IndexCorruptError(`the definitions of a document of segment ${name} are unreadable`);
}

/** The stored lines at the given ordinals (one positioned read each). */
export async function readDocumentHeads(directory: string, name: string, docOffsets: ArrayLike<number>, ordinals: readonly number[], open?: OpenDocumentFiles): Promise<DocumentHead[]> {
  if (ordinals.length === 0) return [];
  return withFile(documentsFilePath(directory, name), `the documents of segment ${name}`, (fd) => {
    const heads: DocumentHead[] = [];
    for (const ordinal of ordinals) {
      const start = docOffsets[ordinal];
      const bytes = readExactly(fd, start, docOffsets[ordinal + 1] - start, name);
      heads.push(JSON.parse(UTF8.decode(bytes)) as DocumentHead);
    }
    return heads;
  }, open);
}

/**
 * Reads a window of each head's body, parallel to `heads`: from the request's checkpoint, at most
 * `maxBytes` bytes (a character cut at the end is left out). Heads of the earlier layout are cut
 * from the text in their line.
 */
export async function readBodyWindows(directory: string, name: string, requests: ReadonlyArray<WindowRequest & { head?: DocumentHead }>, open?: OpenDocumentFiles, blocks?: BodyBlockCache): Promise<BodyWindow[]> {
  const windows: BodyWindow[] = new Array(requests.length);
  const fromFile: number[] = [];
  requests.forEach((request, i) => {
    const { head, checkpoint } = request;
    if (head && !head.body) {
      const text = head.text ?? '';
      windows[i] = { text: text.slice(checkpoint.char), charStart: checkpoint.char, firstIndex: checkpoint.index, bodyChars: text.length };
    } else fromFile.push(i);
  });
  if (fromFile.length === 0) return windows;
  const path = textFilePath(directory, name);
  const kept = blocks ? { cache: blocks, file: path } : undefined;
  withFile(path, `the texts of segment ${name}`, (fd) => {
    const read: ReadStored = (position, length) => readExactly(fd, position, length, name);
    for (const i of fromFile) {
      const { head, checkpoint, maxBytes } = requests[i];
      const layout = bodyLayout(head?.body ?? [0, 0, 0], name);
      const length = Math.min(layout.rawBytes - checkpoint.byte, maxBytes ?? Infinity);
      const data = readRawRange(layout, checkpoint.byte, checkpoint.byte + length, read, name, kept);
      // A character cut by the window's end is left out rather than replaced.
      const text = UTF8.decode(length < layout.rawBytes - checkpoint.byte ? data.subarray(0, wholeCharacters(data)) : data);
      windows[i] = { text, charStart: checkpoint.char, firstIndex: checkpoint.index, bodyChars: layout.chars };
    }
  }, open);
  return windows;
}

/** The length of `bytes` (UTF-8 cut anywhere) without a last character it cuts. */
export function wholeCharacters(bytes: Uint8Array): number {
  // The last character starts at most 3 bytes before the end, at a byte that does not continue one.
  for (let at = bytes.length - 1; at >= 0 && at >= bytes.length - 4; at--) {
    const byte = bytes[at];
    if ((byte & 0xc0) === 0x80) continue;
    const needs = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return at + needs > bytes.length ? at : bytes.length;
  }
  return bytes.length;
}

/** The document as it was indexed, from its head, whole body and definitions. */
export function publicDocument(head: DocumentHead, body: string, defined: StoredDefinitions | null = null): TextDocument {
  const doc: TextDocument = { ...documentFields(head), text: body };
  if (defined && defined.definitions.length > 0) doc.definitions = defined.definitions;
  return doc;
}

/** The document's fields but its body. */
export function documentFields(head: DocumentHead): Omit<TextDocument, 'text'> {
  const { body: _body, checkpoints: _checkpoints, text: _text, definitionPositions: _positions, defined: _defined, ...fields } = head;
  return fields;
}

/** Every stored document of a segment, in ordinal order (merges rebuild from these). */
export async function readAllStoredDocuments(directory: string, name: string): Promise<TextDocument[]> {
  const lines = (await readFile(documentsFilePath(directory, name), 'utf8')).split('\n').filter((line) => line.length > 0);
  const heads = lines.map((line) => JSON.parse(line) as DocumentHead);
  const texts = heads.some((head) => head.body) ? await readFile(textFilePath(directory, name)).catch((error: Error) => {
    throw new IndexCorruptError(`cannot read the texts of segment ${name}: ${error.message}`, { cause: error });
  }) : undefined;
  const read: ReadStored = (position, length) => {
    if (!texts || position + length > texts.length) throw new IndexCorruptError(`the texts of segment ${name} are truncated`);
    return texts.subarray(position, position + length);
  };
  return heads.map((head) => {
    if (!head.body) return publicDocument(head, head.text ?? '');
    const layout = bodyLayout(head.body, name);
    const body = UTF8.decode(readRawRange(layout, 0, layout.rawBytes, read, name));
    let defined: StoredDefinitions | null = null;
    if (head.defined) defined = parseDefinitions(UTF8.decode(readDefinitionBytes(head.defined, read, name)), name);
    return publicDocument(head, body, defined);
  });
}

/**
 * A segment's document files kept open for the queries that read them: a search reads ten hits'
 * lines and body windows, and opening and closing both files each time cost more than the reads.
 * As for postings files (paged-postings.ts), the descriptors are closed when the owner is
 * collected, never while a query could still read them.
 */
export class OpenDocumentFiles {
  private readonly descriptors = new Map<string, number>();

  descriptorOf(path: string, what: string): number {
    let fd = this.descriptors.get(path);
    if (fd === undefined) {
      this.descriptors.set(path, (fd = openFile(path, what)));
      closeWhenCollected(this, fd);
    }
    return fd;
  }
}

const openFiles = new WeakMap<object, OpenDocumentFiles>();

/** The open document files of a segment opened for queries (`segment`: its postings, one object per opening). */
export function openDocumentFilesOf(segment: object): OpenDocumentFiles {
  let files = openFiles.get(segment);
  if (files === undefined) openFiles.set(segment, (files = new OpenDocumentFiles()));
  return files;
}

function withFile<T>(path: string, what: string, use: (fd: number) => T, open?: OpenDocumentFiles): T {
  if (open !== undefined) return use(open.descriptorOf(path, what));
  const fd = openFile(path, what);
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

function openFile(path: string, what: string): number {
  try {
    return openSync(path, 'r');
  } catch (error) {
    throw new IndexCorruptError(`cannot open ${what}: ${(error as Error).message}`, { cause: error });
  }
}

export function readExactly(fd: number, position: number, length: number, name: string): Uint8Array {
  const buffer = new Uint8Array(length);
  const bytesRead = readCounted(fd, buffer, 0, length, position);
  if (bytesRead !== length) throw new IndexCorruptError(`a file of segment ${name} is truncated`);
  return buffer;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function offsetsOf(chunks: readonly Uint8Array[]): number[] {
  const offsets = [0];
  let total = 0;
  for (const chunk of chunks) offsets.push((total += chunk.length));
  return offsets;
}
