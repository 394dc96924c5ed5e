/**
 * The identifiers a page defines, with the anchor that links to each. Documentation generators
 * anchor every definition: Sphinx `<dt id="decimal.getcontext">` (with only `getcontext` in the
 * text), Django `<span id="std-setting-ADMINS">`, rustdoc `<section id="method.push">`, Javadoc
 * `<section id="charAt(int)">` or `<a name="charAt-int-">`, DocBook `<dt id="GUC-SHARED-BUFFERS">`
 * over `shared_buffers`, Doxygen `<a id="a3f…">` before its member's heading, Apache
 * `<a name="ProxyPass" id="ProxyPass">`. The parser (html.ts) hands every anchored element here
 * with the text of the short ones (dt, headings, anchors); the name comes from the id when the id
 * is an identifier, else from that text when it names one. Ids that are not identifiers —
 * generated ones (`id3`, `section-3`, `id-1.5.8.10`), hashes, layout (`toc`, `main-content`) and
 * heading slugs (`getting-started`) — name nothing.
 */

export interface DefinitionMark {
  /** The qualified name (`decimal.getcontext`, `std::vec::Vec::push`). */
  name: string;
  /** The `id` (or `name`) that links to it. */
  anchor: string;
  /** Offset in the page's full text where the element starts. */
  start: number;
}

/** A page may define this many identifiers; more are left out (a hostile page repeats anchors). */
export const MAX_DEFINITIONS = 2_000;
const MAX_NAME_CHARS = 200;
const MAX_ID_CHARS = 300;

/** Elements whose own text may name what they define (when the id does not). */
const NAMING_ELEMENTS = new Set(['dt', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'a']);

/** Prefixes generators put before a name: Sphinx domains and Django's std roles, rustdoc's item kinds. */
const NAME_PREFIXES = /^(?:module-|envvar-|std-[a-z]+-|c\.|js\.|confval-|directive-(?!option-)|role-)/;
const MEMBER_PREFIXES = /^(?:method|tymethod|structfield|variant|associatedtype|associatedconstant|field)\.(?=.)/;
/** Prefixes whose definition is named by the element's text (glossary terms, command options, C++ mangled ids). */
const TEXT_PREFIXES = /^(?:term-|cmdoption-|directive-option-|_CPPv\d|index-|impl-)/;
/** Layout and generated ids. */
const LAYOUT_IDS = /^(?:id|index|section|sec|s|toc|toctree|fn|footnote|note|ref|cite|anchor|heading|title|content|contents|main|main-content|top|header|footer|nav|navbar|menu|sidebar|search|page|skip|body|wrapper|container|impl|implementations|trait-implementations|synthetic-implementations|blanket-implementations|docContent)(?:[-_.]?[\d.]*)?$/i;
const GENERATED_ID = /^s-|^[a-z]*(?:[-_.]?\d+)+(?:[-_.][\d.]+)*$|^[a-z]+[-_][\d.-]+$|^[a-f0-9]{12,}$|^a[a-f0-9]{20,}$/i;
/** Code-like: joiners, brackets, underscores or an inner capital. */
const CODE_LIKE = /[._:#$()/<>~[\]]|\p{Ll}\p{Lu}|_/u;
const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::|#|:)[\p{L}_$][\p{L}\p{N}_$]*)*/gu;

interface Candidate {
  tag: string;
  /** Null: a heading or term with no id of its own, which an empty anchor just before it may name (Doxygen). */
  id: string | null;
  start: number;
  /** The element's text, read when the page ends (null: not a naming element). */
  text: (() => string) | null;
}

/** An anchor this close before a heading or term names it. */
const ANCHOR_REACH = 3;

/** Collects a page's anchored elements as the parser meets them, and names them at the end. */
export class DefinitionReader {
  readonly #candidates: Candidate[] = [];

  /** Whether the parser should collect the text of this element, and offer it without an id. */
  static wantsText(tag: string): boolean {
    return NAMING_ELEMENTS.has(tag);
  }

  /** An element with an `id` (or an `<a name>`), or a heading or dt without one, starting at `start` in the page's text. */
  add(tag: string, id: string | null, start: number, text: (() => string) | null): void {
    // Bounded before naming: a page of a million empty anchors keeps only a few thousand candidates.
    if (this.#candidates.length >= MAX_DEFINITIONS * 4) return;
    if (id === null) {
      const last = this.#candidates[this.#candidates.length - 1];
      if (last === undefined || last.id === null || start - last.start > ANCHOR_REACH) return;
      this.#candidates.push({ tag, id: null, start, text });
      return;
    }
    const trimmed = id.trim();
    if (trimmed === '' || trimmed.length > MAX_ID_CHARS) return;
    this.#candidates.push({ tag, id: trimmed, start, text });
  }

  /** The definitions, first of each name, at most MAX_DEFINITIONS; `qualifier` names the page's item (rustdoc members). */
  definitions(qualifier: string | null): DefinitionMark[] {
    const seen = new Set<string>();
    const found: DefinitionMark[] = [];
    // An anchor that named nothing and has no text (Doxygen's hashed `<a id>`): the heading or term right after it may name it.
    let emptyAnchor: string | null = null;
    for (const candidate of this.#candidates) {
      let name: string | null;
      let anchor: string;
      if (candidate.id === null) {
        if (emptyAnchor === null) continue;
        name = bounded(nameFromText(candidate.text?.() ?? '', candidate.tag === 'dt'));
        anchor = emptyAnchor;
        emptyAnchor = null;
      } else {
        const text = candidate.text?.() ?? '';
        name = definitionName(candidate.tag, candidate.id, text, qualifier);
        anchor = candidate.id;
        emptyAnchor = name === null && text.trim() === '' ? candidate.id : null;
      }
      if (name === null || seen.has(name)) continue;
      seen.add(name);
      found.push({ name, anchor, start: candidate.start });
      if (found.length >= MAX_DEFINITIONS) break;
    }
    return found;
  }
}

/** The name an anchored element defines, or null when it defines none. */
export function definitionName(tag: string, id: string, text: string, qualifier: string | null = null): string | null {
  const fromId = nameFromId(id, text, qualifier);
  if (fromId !== null) return bounded(fromId);
  if (!NAMING_ELEMENTS.has(tag) || text === '') return null;
  const isTerm = /^term-/.test(id);
  // A glossary entry names a term of words; other elements name an identifier.
  if (isTerm || (tag === 'dt' && !CODE_LIKE.test(text) && text.length <= 60 && !text.includes('('))) return bounded(cleanText(text));
  return bounded(nameFromText(text, tag === 'dt'));
}

function nameFromId(id: string, text: string, qualifier: string | null): string | null {
  if (TEXT_PREFIXES.test(id) || LAYOUT_IDS.test(id) || GENERATED_ID.test(id)) return null;
  const member = MEMBER_PREFIXES.exec(id);
  if (member) {
    // rustdoc numbers repeated members (`method.try_from-1`).
    const name = withoutParameters(id.slice(member[0].length)).replace(/-\d+$/, '');
    return qualifier ? `${qualifier}::${name}` : name;
  }
  const prefix = NAME_PREFIXES.exec(id);
  if (prefix) {
    const name = withoutParameters(id.slice(prefix[0].length));
    return /[\p{L}_]/u.test(name) ? name : null;
  }
  let name = safeDecode(id);
  if (/\s/.test(name)) return null;
  // The id is the name the element shows (`<a id="ProxyPass">ProxyPass</a>`).
  const shown = firstIdentifier(text);
  if (shown !== null && withoutParameters(name) === shown) return shown;
  // Java 8's Javadoc: `substring-int-int-` (a slug never ends with a hyphen).
  if (/^[\p{L}_$][\p{L}\p{N}_$]*-.*-$/u.test(name)) return withoutParameters(name);
  if (!CODE_LIKE.test(name) || !/[\p{L}]/u.test(name)) return null;
  // A heading's slug (`appending-to-a-string-with-push_str`) names no identifier.
  if (name.includes('-') && /^[\p{Ll}\p{N}_-]+$/u.test(name)) return null;
  name = withoutParameters(name);
  return /^[\p{L}_$][\p{L}\p{N}_$.:#-]*$/u.test(name) && !/--/.test(name) ? name : null;
}

/** `charAt(int)` → `charAt`; Java 8's `charAt-int-` → `charAt`. */
function withoutParameters(name: string): string {
  const paren = name.indexOf('(');
  if (paren > 0) return name.slice(0, paren);
  const java8 = /^([\p{L}_$][\p{L}\p{N}_$]*)-.*-$/u.exec(name);
  return java8 ? java8[1] : name;
}

/**
 * The name an element's text shows. A heading or anchor names an identifier only when its text is
 * that identifier, or its signature (`push_back()`, `class decimal.Context(prec=None)`); a term
 * (dt) also by the identifier before its parenthesis (`shared_buffers (integer)`) or its
 * reStructuredText form (`:linenos:`, `.. code-block::`).
 */
function nameFromText(text: string, isDt: boolean): string | null {
  const clean = cleanText(text);
  if (isDt) {
    const rst = /^(?:\.\. |:)([\p{L}_][\p{L}\p{N}_-]*)::?(?:\s|$)/u.exec(clean);
    if (rst) return rst[1];
  }
  const signature = /^(?:(?:class|exception|def|function|method|attribute|property|data|fn|pub|const|static|struct|enum|trait|type|interface|abstract|final|public|private|protected|virtual|inline|async|unsafe|extern|macro|module|package|var|let|val|func|mod|classmethod|staticmethod|coroutine|decorator|field)\s+)*([\p{L}_$][\p{L}\p{N}_$]*(?:(?:\.|::|#)[\p{L}_$][\p{L}\p{N}_$]*)*)\s*(\(|$)/u.exec(clean);
  if (signature && (signature[2] === '(' || CODE_LIKE.test(signature[1]))) return signature[1];
  if (isDt) {
    const paren = clean.indexOf('(');
    const names = paren > 0 ? clean.slice(0, paren).match(IDENTIFIER) : null;
    if (names && names.length === 1) return names[0];
  }
  return null;
}

function firstIdentifier(text: string): string | null {
  const match = cleanText(text).match(IDENTIFIER);
  return match ? match[0] : null;
}

/** Text without the permalink marks generators append (¶, §, #) and Doxygen's ◆. */
function cleanText(text: string): string {
  return text.replace(/[¶§◆]/g, ' ').replace(/\s+/g, ' ').trim();
}

function bounded(name: string | null): string | null {
  if (name === null) return null;
  const trimmed = name.trim();
  return trimmed === '' || trimmed.length > MAX_NAME_CHARS ? null : trimmed;
}

function safeDecode(id: string): string {
  if (!id.includes('%')) return id;
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

/** A page's item for rustdoc-style member ids: the `a::b::C` path in its first top heading. */
export function pageQualifier(firstHeading: string | undefined): string | null {
  if (firstHeading === undefined) return null;
  const path = /[\p{L}_][\p{L}\p{N}_]*(?:::[\p{L}_][\p{L}\p{N}_]*)+/u.exec(firstHeading);
  return path ? path[0] : null;
}
