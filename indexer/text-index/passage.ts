/**
 * The passage shown under a hit: where the query's terms stand closest together in the page's
 * body. The postings give the matched terms' word positions; the stored document's checkpoints
 * give an offset a little before the best position, and only the few hundred characters from
 * there are tokenised (with the page's own analysis, so marks fall on exactly the words that
 * matched). The passage names the section it lies in (the nearest heading before it).
 */
import { forEachToken, type AnalyzedToken } from './analysis.ts';
import { findPosting, termNumber, type CompactSegment } from './compact-segment.ts';
import { FIELD_NAMES } from './document.ts';
import { analysisLanguage } from './languages.ts';
import type { StoredDocument } from './segment-files.ts';
import { escapeHtml } from './snippet.ts';

export interface PassageOptions {
  /** Target length in characters of page text (default 200). */
  length?: number;
}

export interface HitPassage {
  /** HTML: page text escaped, matched words in <mark>. */
  snippet: string;
  /** The heading of the section the passage is in, and its anchor (`id`) when it has one. */
  sectionHeading?: string;
  sectionAnchor?: string;
  /** Matched index terms → the word as the page writes it (the first marked one). */
  words: Record<string, string>;
}

const BODY = FIELD_NAMES.indexOf('body');
/** Words a passage spans when choosing where the terms stand closest. */
const WINDOW_WORDS = 24;
/** Words of context tokenised before the best position. */
const CONTEXT_WORDS = 16;

/** Word positions in the body of the document at `ordinal` of every given term, ascending, with the term. */
export function bodyPositions(segment: CompactSegment, ordinal: number, terms: readonly string[]): Array<{ position: number; term: string }> {
  const found: Array<{ position: number; term: string }> = [];
  const field = segment.fields[BODY];
  for (const term of terms) {
    const t = termNumber(segment, term);
    if (t < 0) continue;
    const p = findPosting(field.docs, field.offsets[t], field.offsets[t + 1], ordinal);
    if (p < 0) continue;
    for (let i = field.positionOffsets[p], end = field.positionOffsets[p + 1]; i < end; i++) found.push({ position: field.positions[i], term });
  }
  return found.sort((a, b) => a.position - b.position);
}

/** The body position where most distinct terms stand within a window (then the earliest); -1 when none. */
export function bestPosition(positions: ReadonlyArray<{ position: number; term: string }>): number {
  let best = -1;
  let bestDistinct = 0;
  for (let first = 0, last = 0; first < positions.length; first++) {
    if (last < first) last = first;
    while (last + 1 < positions.length && positions[last + 1].position - positions[first].position < WINDOW_WORDS) last++;
    let distinct = 0;
    if (last - first + 1 > bestDistinct) {
      distinct = new Set(positions.slice(first, last + 1).map((p) => p.term)).size;
      if (distinct > bestDistinct) {
        bestDistinct = distinct;
        best = positions[first].position;
      }
    }
  }
  return best;
}

export function hitPassage(doc: StoredDocument, terms: readonly string[], positions: ReadonlyArray<{ position: number; term: string }>, options: PassageOptions = {}): HitPassage {
  const length = Math.max(40, Math.floor(options.length ?? 200));
  const text = doc.text || doc.headings.join(' ') || doc.title;
  const wanted = new Set(terms);
  const position = text === doc.text ? bestPosition(positions) : -1;
  const lang = analysisLanguage(doc.lang);
  // Tokenise from the checkpoint before the context, up to a little past the passage's end.
  const [firstIndex, from] = checkpointBefore(doc.checkpoints, Math.max(0, position - CONTEXT_WORDS));
  const tokens: AnalyzedToken[] = [];
  let matchStart = -1;
  // With no match in the body, the passage is the start of the text.
  const range = { from, firstIndex, until: position < 0 ? length * 2 : Number.MAX_SAFE_INTEGER };
  forEachToken(
    text,
    lang,
    (term, start, tokenLength, index) => {
      tokens.push({ term, start, length: tokenLength, index });
      if (matchStart < 0 && position >= 0 && index >= position) {
        matchStart = start;
        range.until = start + length * 2;
      }
    },
    range,
  );
  return render(doc, text, tokens, matchStart < 0 ? 0 : matchStart, length, wanted);
}

function render(doc: StoredDocument, text: string, tokens: readonly AnalyzedToken[], matchStart: number, length: number, wanted: ReadonlySet<string>): HitPassage {
  // A third of the room before the first match, the rest after; cut at word boundaries.
  let start = matchStart === 0 ? 0 : Math.max(0, matchStart - Math.floor(length / 3));
  const startToken = tokens.find((t) => t.start >= start && t.start <= matchStart);
  start = startToken ? startToken.start : matchStart;
  let end = Math.min(text.length, start + length);
  let cut = start;
  for (const token of tokens) if (token.start + token.length <= end && token.start + token.length > cut) cut = token.start + token.length;
  if (end < text.length && cut > start) end = cut;
  const squeeze = (s: string) => escapeHtml(s.replace(/\s+/g, ' '));
  let out = start > 0 ? '… ' : '';
  let at = start;
  const words: Record<string, string> = {};
  for (const token of tokens) {
    if (token.term === null || !wanted.has(token.term) || token.start < at || token.start + token.length > end) continue;
    out += squeeze(text.slice(at, token.start));
    const word = text.slice(token.start, token.start + token.length);
    words[token.term] ??= word;
    out += `<mark>${escapeHtml(word)}</mark>`;
    at = token.start + token.length;
  }
  out += squeeze(text.slice(at, end));
  if (end < text.length) out += ' …';
  const passage: HitPassage = { snippet: out.trim(), words };
  const section = sectionAt(doc, matchStart);
  if (section) {
    passage.sectionHeading = section.heading;
    if (section.anchor) passage.sectionAnchor = section.anchor;
  }
  return passage;
}

function sectionAt(doc: StoredDocument, offset: number): { heading: string; anchor?: string } | null {
  const sections = doc.sections;
  if (!sections || sections.length === 0) return null;
  let found = null;
  for (const section of sections) {
    if (section.start > offset) break;
    found = section;
  }
  return found;
}

/** The last checkpoint at or before a word ordinal: [ordinal, offset] ([0, 0] when none). */
function checkpointBefore(checkpoints: readonly number[] | undefined, ordinal: number): [number, number] {
  let best: [number, number] = [0, 0];
  if (!checkpoints) return best;
  for (let i = 0; i + 1 < checkpoints.length; i += 2) {
    if (checkpoints[i] > ordinal) break;
    best = [checkpoints[i], checkpoints[i + 1]];
  }
  return best;
}
