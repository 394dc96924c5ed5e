/**
 * A passage of a whole text (hits use passage.ts, which reads only near the match): about `length` characters with the most distinct
 * query terms (then the most matches), words matching a query term (by stem, as the index matches
 * them) wrapped in <mark>, and everything else HTML-escaped — page text is never trusted as HTML.
 */
import { analyzeText } from './analysis.ts';
import { analysisLanguage } from './languages.ts';

export interface SnippetOptions {
  /** Target length in characters of page text (default 200). */
  length?: number;
  /** The text's language (its analysis decides which words match; default English). */
  lang?: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

export function snippet(text: string, queryTerms: readonly string[], options: SnippetOptions = {}): string {
  const length = Math.max(40, Math.floor(options.length ?? 200));
  const lang = analysisLanguage(options.lang);
  // Index terms as given, and query words analysed as the text is.
  const wanted = new Set<string>();
  for (const term of queryTerms) {
    wanted.add(term);
    for (const token of analyzeText(term, lang)) if (token.term !== null) wanted.add(token.term);
  }
  const tokens = analyzeText(text, lang);
  const matches = tokens.filter((token) => token.term !== null && wanted.has(token.term));
  if (matches.length === 0) return render(text, tokens, 0, endAtWord(text, tokens, Math.min(text.length, length)), new Set());

  // Best window: starts at a match, spans at most `length` characters.
  let best = { first: 0, last: 0, distinct: 0, count: 0 };
  for (let first = 0, last = 0; first < matches.length; first++) {
    if (last < first) last = first;
    while (last + 1 < matches.length && matches[last + 1].start + matches[last + 1].length - matches[first].start <= length) last++;
    const window = matches.slice(first, last + 1);
    const distinct = new Set(window.map((m) => m.term)).size;
    const count = window.length;
    if (distinct > best.distinct || (distinct === best.distinct && count > best.count)) best = { first, last, distinct, count };
  }
  const from = matches[best.first].start;
  const to = matches[best.last].start + matches[best.last].length;
  // Spread the remaining room around the matches, a third before and the rest after.
  const room = Math.max(0, length - (to - from));
  let start = Math.max(0, from - Math.floor(room / 3));
  const end = Math.min(text.length, start + Math.max(length, to - start));
  if (end - start < length) start = Math.max(0, end - length);
  return render(text, tokens, startAtWord(tokens, start, from), endAtWord(text, tokens, end), new Set(matches.slice(best.first, best.last + 1)));
}

type Token = ReturnType<typeof analyzeText>[number];

/** Moves a start offset forward to the beginning of a word (never past `limit`). */
function startAtWord(tokens: readonly Token[], start: number, limit: number): number {
  if (start === 0) return 0;
  const next = tokens.find((t) => t.start >= start);
  return next ? Math.min(next.start, limit) : start;
}

/** Moves an end offset back to the end of a word. */
function endAtWord(text: string, tokens: readonly Token[], end: number): number {
  if (end >= text.length) return text.length;
  let best = 0;
  for (const token of tokens) {
    if (token.start + token.length <= end) best = token.start + token.length;
    else break;
  }
  return best > 0 ? best : end;
}

function render(text: string, tokens: readonly Token[], start: number, end: number, marked: ReadonlySet<Token>): string {
  const squeeze = (s: string) => escapeHtml(s.replace(/\s+/g, ' '));
  let out = start > 0 ? '… ' : '';
  let at = start;
  for (const token of marked) {
    if (token.start < start || token.start + token.length > end) continue;
    out += squeeze(text.slice(at, token.start));
    out += `<mark>${escapeHtml(text.slice(token.start, token.start + token.length))}</mark>`;
    at = token.start + token.length;
  }
  out += squeeze(text.slice(at, end));
  if (end < text.length) out += ' …';
  return out.trim();
}
