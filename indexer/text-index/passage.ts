/**
 * The passage shown under a hit: where the query's terms stand closest together in the page's
 * body. The postings give the matched terms' word positions; the stored document's checkpoints
 * give an offset a little before the best position, and only a window of the body from there is
 * read and tokenised (with the page's own analysis, so marks fall on exactly the words that
 * matched). The passage names the section it lies in (the nearest heading before it), and starts
 * no earlier than that section.
 */
import { analyzeText, forEachToken, type AnalyzedToken, type TokenRange } from './analysis.ts';
import { hasPosting, postingPositions, termNumber, type CompactSegment } from './compact-segment.ts';
import { FIELD_NAMES, qualifiedSuffixes, type TextDefinition } from './document.ts';
import { analysisLanguage } from './languages.ts';
import { escapeHtml } from './snippet.ts';
import { checkpointsOf, type BodyWindow, type Checkpoint, type DocumentHead, type StoredDefinitions, type WindowRequest } from './stored-documents.ts';

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
const DEFINITIONS = FIELD_NAMES.indexOf('definitions');
/** Words a passage spans when choosing where the terms stand closest. */
const WINDOW_WORDS = 24;

/** Word positions in the body of the document at `ordinal` of every given term, ascending, with the term. */
export function bodyPositions(segment: CompactSegment, ordinal: number, terms: readonly string[]): Array<{ position: number; term: string }> {
  const found: Array<{ position: number; term: string }> = [];
  const field = segment.fields[BODY];
  for (const term of terms) {
    const t = termNumber(segment, term);
    if (t < 0) continue;
    for (const position of postingPositions(field, t, ordinal)) found.push({ position, term });
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

const passageLength = (options: PassageOptions) => Math.max(40, Math.floor(options.length ?? 200));
/** UTF-8 bytes per UTF-16 code unit, at most: a window of n·3 bytes holds n characters. */
const MAX_BYTES_PER_CHAR = 3;

/**
 * The part of the body a passage at word `position` needs (-1: no match in the body, the start).
 * The match lies after the last checkpoint at or before it, so a window from the last checkpoint
 * a third of a passage before that one holds the passage's start; its end lies within a passage
 * length after the checkpoint that follows the match.
 */
export function passageWindow(head: DocumentHead, position: number, options: PassageOptions = {}): WindowRequest {
  const length = passageLength(options);
  const room = length * MAX_BYTES_PER_CHAR;
  if (position < 0) return { checkpoint: { index: 0, char: 0, byte: 0 }, maxBytes: room };
  const checkpoints = checkpointsOf(head);
  let before = -1;
  let next: Checkpoint | undefined;
  for (let i = 0; i < checkpoints.count; i++) {
    if (checkpoints.index(i) <= position) before = i;
    else {
      next = checkpoints.at(i);
      break;
    }
  }
  const context = before < 0 ? 0 : checkpoints.char(before) - Math.floor(length / 3);
  let start: Checkpoint = { index: 0, char: 0, byte: 0 };
  for (let i = before; i >= 0; i--) {
    if (checkpoints.char(i) <= context) {
      start = checkpoints.at(i);
      break;
    }
  }
  return { checkpoint: start, maxBytes: next && next.byte >= 0 ? next.byte - start.byte + room : undefined };
}

/**
 * The passage of a hit from a window of its body (passageWindow), `position` its best body
 * position (bestPosition). `positions`, the body positions of its terms (bodyPositions), spares
 * analysing the words between them: only the words there can be marked.
 */
export function hitPassage(head: DocumentHead, window: BodyWindow, terms: readonly string[], position: number, options: PassageOptions = {}, positions?: ReadonlyArray<{ position: number }>): HitPassage {
  const length = passageLength(options);
  // A page with no body text shows its headings, or its title.
  const fallback = window.bodyChars === 0 ? head.headings.join(' ') || head.title : undefined;
  const source: BodyWindow = fallback === undefined ? window : { text: fallback, charStart: 0, firstIndex: 0, bodyChars: fallback.length };
  if (fallback !== undefined) position = -1;
  const text = source.text;
  const lang = analysisLanguage(head.lang);
  const tokens: AnalyzedToken[] = [];
  let matchStart = -1;
  // With no match in the body, the passage is the start of the text.
  // Tokens up to a passage length past the match: the passage ends before that.
  const range: TokenRange = { from: 0, firstIndex: source.firstIndex, until: position < 0 ? length : Number.MAX_SAFE_INTEGER };
  if (positions !== undefined && fallback === undefined) {
    const marked = new Set(positions.map((p) => p.position));
    range.termAt = (index) => marked.has(index);
  }
  forEachToken(
    text,
    lang,
    (term, start, tokenLength, index) => {
      tokens.push({ term, start, length: tokenLength, index });
      if (matchStart < 0 && position >= 0 && index >= position) {
        matchStart = start;
        range.until = start + length;
      }
    },
    range,
  );
  const at = matchStart < 0 ? 0 : matchStart;
  const section = sectionAt(head, source.charStart + at);
  // Not a word of the previous section: the passage starts at the heading's section at the earliest.
  const floor = section ? Math.max(0, section.start - source.charStart) : 0;
  const passage = render(source, tokens, at, Math.min(floor, at), length, new Set(terms));
  if (section) {
    passage.sectionHeading = section.heading;
    if (section.anchor) passage.sectionAnchor = section.anchor;
  }
  return passage;
}

function render(source: BodyWindow, tokens: readonly AnalyzedToken[], matchStart: number, floor: number, length: number, wanted: ReadonlySet<string>): HitPassage {
  const { text, charStart, bodyChars } = source;
  // A third of the room before the first match, the rest after; cut at word boundaries.
  let start = charStart + matchStart === 0 ? 0 : Math.max(floor, matchStart - Math.floor(length / 3));
  const startToken = tokens.find((t) => t.start >= start && t.start <= matchStart);
  start = startToken ? startToken.start : matchStart;
  let end = Math.min(text.length, start + length);
  let cut = start;
  for (const token of tokens) if (token.start + token.length <= end && token.start + token.length > cut) cut = token.start + token.length;
  if (charStart + end < bodyChars && cut > start) end = cut;
  const squeeze = (s: string) => escapeHtml(s.replace(/\s+/g, ' '));
  let out = charStart + start > 0 ? '… ' : '';
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
  if (charStart + end < bodyChars) out += ' …';
  return { snippet: out.trim(), words };
}

function sectionAt(head: DocumentHead, offset: number): { heading: string; anchor?: string; start: number } | null {
  const sections = head.sections;
  if (!sections || sections.length === 0) return null;
  let found = null;
  for (const section of sections) {
    if (section.start > offset) break;
    found = section;
  }
  return found;
}

/** The hit's terms that its page has in the `definitions` field (postings only, no I/O). */
export function definitionTerms(segment: CompactSegment, ordinal: number, terms: readonly string[]): string[] {
  const field = segment.fields[DEFINITIONS];
  return terms.filter((term) => {
    const t = termNumber(segment, term);
    return t >= 0 && hasPosting(field, t, ordinal);
  });
}

/**
 * The definition a hit matched (`wanted`: its terms in the page's `definitions` field): the one
 * whose name holds the most of them (then the query's first term, which is its word as typed
 * before any stemmed alternative; then the shortest name), with the body position where it
 * starts. The hit's passage and section link go there (`#anchor`), not to the best body passage.
 */
export function matchedDefinition(stored: StoredDefinitions | null, wanted: readonly string[], lang: string | undefined): { definition: TextDefinition; position: number } | null {
  if (stored === null || wanted.length === 0) return null;
  const { definitions, positions } = stored;
  if (positions.length !== definitions.length) return null;
  const analysis = analysisLanguage(lang);
  // Stems and identifier parts are written inside the name: a substring test spares analysing every name.
  const plain = wanted.map((term) => term.replace(/^[a-z]{2}:/, ''));
  let best = -1;
  let bestCount = 0;
  let bestFirst = Infinity;
  let bestLength = Infinity;
  definitions.forEach((definition, k) => {
    const lower = definition.name.toLowerCase();
    if (!plain.some((term) => lower.includes(term))) return;
    const own = new Set(analyzeText(qualifiedSuffixes(definition.name).join(' '), analysis).map((token) => token.term));
    const count = wanted.filter((term) => own.has(term)).length;
    const first = wanted.findIndex((term) => own.has(term));
    if (count === 0) return;
    if (count > bestCount || (count === bestCount && (first < bestFirst || (first === bestFirst && definition.name.length < bestLength)))) {
      best = k;
      bestCount = count;
      bestFirst = first;
      bestLength = definition.name.length;
    }
  });
  return best < 0 ? null : { definition: definitions[best], position: positions[best] };
}
