/**
 * Text analysis shared by indexing, querying and snippets: one function turns a text in a
 * language into index terms with their offsets and word positions.
 *
 * - Words are runs of letters, digits and marks. A run joined by `_`, `.`, `::`, `:`, `/` or `#`,
 *   or written in camelCase (`mod_rewrite`, `os.path.join`, `RewriteRule`, `std::vector`,
 *   `lists:keyfind`, `gen_server:call/3`, `Date#parse`), is an identifier: it is indexed whole
 *   (lower-cased, unstemmed), by each of its compound segments between the other joiners
 *   (`gen_server` in `gen_server:call/3`) and by its parts; a part is indexed both stemmed and as
 *   written (`ets` in `ets:new` stays `ets`, not only the stem `et`), so every form finds it.
 * - Han, kana and Hangul runs become overlapping character bigrams (a lone character stays one
 *   term): a word is found inside the longer runs that hold it (`설정파일` in `주설정파일에서`),
 *   which a dictionary segmenter misses whenever it cuts the run differently on the page and in
 *   the query. Query words become the same bigrams, matched as a phrase.
 * - Thai (no spaces) is cut into words by `Intl.Segmenter`.
 * - Other words are lower-cased, then stop words are dropped and the rest stemmed in the
 *   document's language (languages.ts).
 */
import { analysisLanguage, isStopWord, languageWritesScript, stemTerm } from './languages.ts';

/** One token of an analysed text. */
export interface AnalyzedToken {
  /** The index term, or null for a stop word (it still takes a position). */
  term: string | null;
  start: number;
  length: number;
  /** The word's ordinal in the text (an identifier's whole shares its first part's ordinal). */
  index: number;
}

/** A chunk of word characters, with the joiners identifiers use. */
const CHUNK = /[\p{L}\p{N}\p{M}_]+(?:(?:\.|::|:|\/|#)[\p{L}\p{N}\p{M}_]+)*/gu;
/** Joiners between an identifier's segments (`_` and camelCase join the parts within one). */
const SEGMENT_JOINER = /::|[.:/#]/;
/** Characters written without spaces between words: Han, kana (with the prolonged-sound mark), Hangul. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]+/gu;
const THAI = /\p{Script=Thai}/u;
const SIMPLE_WORD = /^[\p{L}\p{N}\p{M}]+$/u;
const PART = /[\p{L}\p{N}\p{M}]+/gu;
/** camelCase boundaries: lower→Upper, and the last capital of an acronym before a lower-case letter. */
const CAMEL = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

const thaiSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

// Pages repeat words, and stemming is most of the analysis time: memoise language → word → term
// (one map per language: a joined key cost a string per token).
const termCaches = new Map<string, Map<string, string | null>>();
let cachedTerms = 0;

/**
 * The index term of a lower-cased word in an analysis language (null for a stop word). A word in
 * a script the language is not written in (`Debian` on a Russian page, a number) gets the neutral
 * analysis, as a query word in that script does.
 */
export function wordTerm(word: string, lang: string): string | null {
  let cache = termCaches.get(lang);
  if (cache === undefined) termCaches.set(lang, (cache = new Map()));
  let term = cache.get(word);
  if (term === undefined) {
    const script = scriptOf(word);
    if (script === null || !languageWritesScript(lang, script)) term = word;
    else term = isStopWord(word, lang) ? null : stemTerm(word, lang);
    if (cachedTerms >= 200_000) {
      for (const other of termCaches.values()) other.clear();
      cachedTerms = 0;
    }
    cache.set(word, term);
    cachedTerms++;
  }
  return term;
}

/**
 * Every token of a text in a document language (`undefined` is English, as documents that name no
 * language have always been analysed; an unknown language gets the neutral analysis).
 */
export function analyzeText(text: string, lang?: string): AnalyzedToken[] {
  const tokens: AnalyzedToken[] = [];
  forEachToken(text, analysisLanguage(lang), (term, start, length, index) => tokens.push({ term, start, length, index }));
  return tokens;
}

export type TokenVisitor = (term: string | null, start: number, length: number, index: number) => void;

export interface TokenRange {
  /** Offset to start at: the start of a chunk (a checkpoint), and the word ordinal there. */
  from: number;
  firstIndex: number;
  /** Stop before the first chunk that starts at or after this offset (read at every chunk: a visitor may lower it). */
  until: number;
  /** Called at the start of every chunk with its offset and first word ordinal (checkpoints). */
  onChunk?: (start: number, index: number) => void;
  /**
   * Which one-word chunks need their term: one this refuses is visited with a null term, its
   * place counted but its term not looked up (a snippet marks only the words its postings point
   * at). Identifiers and segmented scripts are analysed whatever it says.
   */
  termAt?: (index: number) => boolean;
}

/** Calls `visit` for every token of a text analysed in `lang` (an analysis language). */
export function forEachToken(text: string, lang: string, visit: TokenVisitor, range?: TokenRange): void {
  let index = range?.firstIndex ?? 0;
  const onChunk = range?.onChunk;
  const termAt = range?.termAt;
  const chunks = new ChunkScanner(text, range?.from ?? 0);
  while (chunks.next()) {
    const at = chunks.start;
    if (range !== undefined && at >= range.until) return;
    onChunk?.(at, index);
    // A one-word chunk the caller needs no term of is counted and not analysed.
    const counted = termAt !== undefined && !termAt(index);
    if (chunks.plain && counted) {
      visit(null, at, chunks.end - at, index++);
      continue;
    }
    const chunk = text.slice(at, chunks.end);
    if (chunks.plain) {
      // The common case: one plain word, lower case but for its first letter.
      visit(wordTerm(chunks.capitalised ? chunk.toLowerCase() : chunk, lang), at, chunk.length, index++);
      continue;
    }
    if (SIMPLE_WORD.test(chunk) && !CJK.test(chunk) && !THAI.test(chunk) && !hasCamelCase(chunk)) {
      visit(counted ? null : wordTerm(chunk.toLowerCase(), lang), at, chunk.length, index++);
      continue;
    }
    index = visitChunk(chunk, at, lang, index, visit);
  }
}

/**
 * The chunks of a text one after another, as {@link CHUNK} defines them. Most text is ASCII: a
 * plain ASCII word is found by hand (40 % of English tokenising went to the expression), and the
 * expression takes over at anything else.
 */
export class ChunkScanner {
  /** The current chunk: `text.slice(start, end)`. */
  start = 0;
  end = 0;
  /**
   * The chunk is ASCII letters and digits with no capital after its first character (a chunk the
   * expression found is not marked plain even when it is).
   */
  plain = false;
  /** A plain chunk that starts with a capital. */
  capitalised = false;
  // A local expression: snippets tokenise inside a visitor of another tokenisation.
  private readonly expression = new RegExp(CHUNK.source, 'gu');

  constructor(
    readonly text: string,
    private position: number,
  ) {}

  /** Moves to the next chunk; false at the end of the text. */
  next(): boolean {
    const { text } = this;
    let position = this.position;
    let code = 0;
    while (position < text.length && (code = text.charCodeAt(position)) < 0x80 && !isAsciiWordCharacter(code)) position++;
    if (position >= text.length) return false;
    const plainEnd = code < 0x80 ? plainAsciiWordEnd(text, position) : -1;
    if (plainEnd > 0) {
      this.start = position;
      this.end = plainEnd;
      this.plain = true;
      this.capitalised = code >= 0x41 && code <= 0x5a;
    } else {
      this.expression.lastIndex = position;
      const match = this.expression.exec(text);
      if (match === null) {
        this.position = text.length;
        return false;
      }
      this.start = match.index;
      this.end = match.index + match[0].length;
      this.plain = false;
      this.capitalised = false;
    }
    this.position = this.end;
    return true;
  }
}

/** `_`, an ASCII letter or digit: a character a chunk may start with. */
function isAsciiWordCharacter(code: number): boolean {
  return isAsciiLetterOrDigit(code) || code === 0x5f;
}

function isAsciiLetterOrDigit(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39);
}

/**
 * The end of the chunk starting at `start` when it is a plain ASCII word: letters and digits, no
 * capital after the first character, followed by the text's end or an ASCII character that neither
 * continues a word nor may join an identifier. −1 otherwise (the expression decides).
 */
function plainAsciiWordEnd(text: string, start: number): number {
  if (!isAsciiLetterOrDigit(text.charCodeAt(start))) return -1;
  let i = start + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) continue;
    // A capital, `_` or a non-ASCII character may continue the chunk or make it an identifier.
    if (c >= 0x80 || (c >= 0x41 && c <= 0x5a) || c === 0x5f) return -1;
    if (c === 0x2e || c === 0x3a || c === 0x2f || c === 0x23) {
      // A joiner joins only when a word character follows (the end of a sentence does not).
      const after = i + 1 < text.length ? text.charCodeAt(i + 1) : 0x20;
      if (after >= 0x80 || isAsciiWordCharacter(after) || (c === 0x3a && after === 0x3a)) return -1;
    }
    break;
  }
  return i;
}

function hasCamelCase(word: string): boolean {
  // Fast path: an all-lower-case word or a capitalised one has no inner capital.
  for (let i = 1; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return CAMEL.test(word);
    if (c > 0x7f) return CAMEL.test(word);
  }
  return false;
}

/** A chunk with joiners, camelCase, CJK or Thai: its parts (and whole), from word ordinal `index`. */
function visitChunk(chunk: string, at: number, lang: string, index: number, visit: TokenVisitor): number {
  const parts = chunkParts(chunk, at);
  const scripted = parts.some((part) => CJK.test(part.text) || THAI.test(part.text));
  if (scripted || parts.length < 2) {
    for (const part of parts) index = visitPart(part.text, part.start, lang, index, visit);
    return index;
  }
  // An identifier: the whole (without leading or trailing underscores), its compound segments, then the parts.
  const whole = chunk.replace(/^_+|_+$/g, '');
  visit(whole.toLowerCase(), at + chunk.indexOf(whole), whole.length, index);
  const segments = SEGMENT_JOINER.test(chunk) ? compoundSegments(chunk, at) : [];
  let segment = 0;
  for (const part of parts) {
    while (segment < segments.length && segments[segment].start + segments[segment].text.length <= part.start) segment++;
    const compound = segments[segment];
    if (compound !== undefined && compound.start === part.start) visit(compound.text.toLowerCase(), compound.start, compound.text.length, index);
    const lower = part.text.toLowerCase();
    const term = wordTerm(lower, lang);
    visit(term, part.start, part.text.length, index);
    // The part as written too, when its term is a stem: `ets` in `ets:new` must not only be `et`.
    if (term !== null && term !== lower) visit(lower, part.start, part.text.length, index);
    index++;
  }
  return index;
}

/** The parts of a chunk: runs of letters and digits, cut further at camelCase boundaries. */
function chunkParts(chunk: string, at: number): Array<{ text: string; start: number }> {
  const parts: Array<{ text: string; start: number }> = [];
  PART.lastIndex = 0;
  for (let part = PART.exec(chunk); part !== null; part = PART.exec(chunk)) {
    let offset = 0;
    for (const piece of part[0].split(CAMEL)) {
      parts.push({ text: piece, start: at + part.index + offset });
      offset += piece.length;
    }
  }
  return parts;
}

/** The segments of an identifier between `.`, `::`, `:`, `/` and `#` that are identifiers themselves (`gen_server`). */
function compoundSegments(chunk: string, at: number): Array<{ text: string; start: number }> {
  const segments: Array<{ text: string; start: number }> = [];
  let offset = 0;
  for (const piece of chunk.split(SEGMENT_JOINER)) {
    const start = chunk.indexOf(piece, offset);
    offset = start + piece.length;
    const trimmed = piece.replace(/^_+|_+$/g, '');
    if (trimmed !== '' && chunkParts(trimmed, 0).length > 1) segments.push({ text: trimmed, start: at + start + piece.indexOf(trimmed) });
  }
  return segments;
}

/** The written parts of an identifier's segments (`gen_server:call/3` → gen_server, call, 3), or its parts when it has one segment. */
export function identifierPieces(word: string): string[] {
  const pieces = word.split(SEGMENT_JOINER).map((piece) => piece.replace(/^_+|_+$/g, '')).filter((piece) => piece !== '');
  if (pieces.length > 1) return pieces;
  return chunkParts(word, 0).map((part) => part.text);
}

/** A part of a chunk: a plain word, or runs of CJK / Thai / other letters within it. */
function visitPart(text: string, at: number, lang: string, index: number, visit: TokenVisitor): number {
  if (!CJK.test(text) && !THAI.test(text)) {
    visit(wordTerm(text.toLowerCase(), lang), at, text.length, index);
    return index + 1;
  }
  let last = 0;
  CJK_RUN.lastIndex = 0;
  for (let run = CJK_RUN.exec(text); run !== null; run = CJK_RUN.exec(text)) {
    if (run.index > last) index = visitNonCjk(text.slice(last, run.index), at + last, lang, index, visit);
    index = visitBigrams(run[0], at + run.index, index, visit);
    last = run.index + run[0].length;
  }
  if (last < text.length) index = visitNonCjk(text.slice(last), at + last, lang, index, visit);
  return index;
}

function visitNonCjk(text: string, at: number, lang: string, index: number, visit: TokenVisitor): number {
  if (!THAI.test(text)) {
    visit(wordTerm(text.toLowerCase(), lang), at, text.length, index);
    return index + 1;
  }
  for (const segment of thaiSegmenter.segment(text)) {
    if (!segment.isWordLike) continue;
    visit(segment.segment.toLowerCase(), at + segment.index, segment.segment.length, index++);
  }
  return index;
}

/** Overlapping character bigrams of a CJK run; a run of one character is one term. */
function visitBigrams(run: string, at: number, index: number, visit: TokenVisitor): number {
  const chars = Array.from(run);
  if (chars.length === 1) {
    visit(run, at, run.length, index);
    return index + 1;
  }
  let offset = 0;
  for (let i = 0; i + 1 < chars.length; i++) {
    const length = chars[i].length + chars[i + 1].length;
    visit(run.slice(offset, offset + length), at + offset, length, index++);
    offset += chars[i].length;
  }
  return index;
}

/** Whether a text holds characters analysed as CJK bigrams or Thai words (no typo tolerance for them). */
export function isSegmentedScript(text: string): boolean {
  return CJK.test(text) || THAI.test(text);
}

/** The script of a word's first letter (`Latin`, `Cyrillic`, `Han`…), or null. */
export function scriptOf(word: string): string | null {
  for (const script of SCRIPTS) if (script.pattern.test(word)) return script.name;
  return null;
}

const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Armenian', 'Devanagari', 'Tamil', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Thai'].map((name) => ({
  name,
  pattern: new RegExp(`^[^\\p{L}]*\\p{Script=${name}}`, 'u'),
}));
