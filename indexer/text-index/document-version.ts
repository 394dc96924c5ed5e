/**
 * A document's version: a short hash of the document exactly as the index keeps it (normalised,
 * text capped). The manifest records it per live page, so that at start-up the index can tell in
 * one pass over the store which pages it holds an older (or no) version of — the pages whose
 * indexing a crash interrupted — and re-index only those.
 */
import { createHash } from 'node:crypto';
import type { TextDocument } from './document.ts';

/**
 * The version of the analysis: what terms a document gives (stemming, identifiers, exact names…).
 * Raised with every change to them, it changes every page's version, so an index written by an
 * earlier release is re-indexed from the store at the next start (catch-up.ts) instead of
 * answering with the old terms. 2: exact names. 3: titles'
 * and headings' words after analysis.
 */
export const INDEX_ANALYSIS = 3;

/** 48 bits: a changed page keeps its old version with a chance of 2⁻⁴⁸. */
const VERSION_HEX_DIGITS = 12;

/** The version of a normalised document (see normalizeDocument). */
export function documentVersion(doc: TextDocument): string {
  const hash = createHash('sha1');
  hash.update(`analysis ${INDEX_ANALYSIS}\u0000`);
  // Field by field, in a fixed order: the same document always gives the same version.
  hash.update(JSON.stringify([doc.id, doc.url, doc.host, doc.title, doc.headings, doc.lang ?? null, doc.type ?? null, doc.sections ?? null, doc.lastModified ?? null, ...(doc.definitions ? [doc.definitions] : [])]));
  hash.update('\u0000');
  hash.update(doc.text);
  return hash.digest('hex').slice(0, VERSION_HEX_DIGITS);
}
