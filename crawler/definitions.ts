/**
 * The identifiers a page defines, with the anchor that links to each. Documentation generators
 * anchor every definition: Sphinx `<dt id="decimal.getcontext">` (with only `getcontext` in the
 * text), Django `<span id="std-setting-ADMINS">`, rustdoc `<section id="method.push">`, Javadoc
 * `<section id="charAt(int)">` or `<a name="charAt-int-">`, DocBook `<dt id="GUC-SHARED-BUFFERS">`
 * over `shared_buffers`, Doxygen `<a id="a3f…">` before its member's heading, Apache
 * `<a name="ProxyPass" id="ProxyPass">`. The parser (html.ts) hands every anchored element here
 * with the text of the short ones (dt, headings, anchors); the name comes from the id when the id
 * is an identifier, else from that text when it names one. An empty anchor (DocBook's index
 * anchors) names the element right after it: inline code marked as a name
 * (`<code class="function">btrim</code>`), a heading in capitals (`ALTER DOMAIN`), a Doxygen
 * heading. A top heading that names an item (`Struct std::vec::Vec`, `Primitive Type i16`,
 * `Class String`) makes the page define it, and its members the item's. Ids that are not
 * identifiers — generated ones (`id3`, `section-3`, `id-1.5.8.10`), hashes, layout (`toc`, `main-content`) and
 * heading slugs (`getting-started`) — name nothing.
 */

export interface DefinitionMark {
  /** The qualified name (`decimal.getcontext`, `std::vec::Vec::push`). */
  name: string;
  /** The `id` (or `name`) that links to it; empty for the item the whole page defines. */
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
/**
 * Inline code marked as a name of a kind (DocBook's `<code class="function">btrim</code>` and
 * `<code class="envar">`): it names what an empty index anchor just before it defines (a function
 * table's entry), never on its own (the same markup marks every mention).
 */
const CODE_ELEMENTS = new Set(['code', 'tt', 'span']);
const NAME_CLASSES = /(?:^|\s)(?:function|envar|varname|command|methodname|classname|structname|symbol)(?:\s|$)/;
/** A command named in capitals (`ALTER DOMAIN`, `SELECT INTO`): what a reference page's heading after an index anchor defines. */
const COMMAND = /^[A-Z][A-Z0-9_]*(?: [A-Z][A-Z0-9_]*){0,4}$/;
/** rustdoc's and Javadoc's kinds, before the item a page's top heading names (`Primitive Type i16`, `Class String`). */
const ITEM_KINDS = /^(?:Primitive Type|Keyword|Struct|Enum|Trait|Union|Macro|Type Definition|Type Alias|Attribute Macro|Derive Macro|Trait Alias|(?:Enum |Record |Annotation )?(?:Class|Interface)|Annotation Type|Record) ([\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*)(?=$|[^\p{L}\p{N}_$.])/u;

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
const WHOLE_IDENTIFIER = new RegExp(`^${IDENTIFIER.source}$`, 'u');

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
  static wantsText(tag: string, className?: string): boolean {
    return NAMING_ELEMENTS.has(tag) || isNameCode(tag, className);
  }

  /** Whether an element without an id starting at `start` is a candidate: a term, or named by the anchor just before it. */
  acceptsUnanchored(tag: string, start: number): boolean {
    return tag === 'dt' || this.followsAnchor(start);
  }

  /** Whether an element without an id starting at `start` may be named by the anchor just before it. */
  followsAnchor(start: number): boolean {
    const last = this.#candidates[this.#candidates.length - 1];
    return last !== undefined && last.id !== null && start - last.start <= ANCHOR_REACH;
  }

  /** An element with an `id` (or an `<a name>`), or a heading or dt without one, starting at `start` in the page's text. */
  add(tag: string, id: string | null, start: number, text: (() => string) | null): void {
    // Bounded before naming: a page of a million empty anchors keeps only a few thousand candidates.
    if (this.#candidates.length >= MAX_DEFINITIONS * 4) return;
    if (id === null) {
      // A term without an id may hold the index anchor that names it (`<dt>ssl_cipher() returns text <a class="indexterm">`).
      if (!this.followsAnchor(start) && tag !== 'dt') return;
      this.#candidates.push({ tag, id: null, start, text });
      return;
    }
    const trimmed = id.trim();
    if (trimmed === '' || trimmed.length > MAX_ID_CHARS) return;
    this.#candidates.push({ tag, id: trimmed, start, text });
  }

  /**
   * The definitions, first of each name, at most MAX_DEFINITIONS. `top` is the page's first top
   * heading: when it names an item (rustdoc's `Struct std::vec::Vec` or `Primitive Type i16`,
   * Javadoc's `Class String`), the page defines that item (no anchor: the page itself), and its
   * members are the item's (`Vec::push`, `String.charAt`).
   */
  definitions(top: { text: string; start: number } | null): DefinitionMark[] {
    const seen = new Set<string>();
    const found: DefinitionMark[] = [];
    const item = pageItem(top?.text);
    if (item !== null && top !== null) {
      found.push({ name: item.name, anchor: '', start: top.start });
      seen.add(item.name);
    }
    const qualifier = item === null ? null : { name: item.qualifier, joiner: item.joiner };
    // An anchor that named nothing and has no text (Doxygen's hashed `<a id>`): the heading or term right after it may name it.
    let emptyAnchor: string | null = null;
    // A term without an id, whose text an empty anchor inside it may name (DocBook's contrib function lists).
    let openTerm: { start: number; text: string } | null = null;
    for (const candidate of this.#candidates) {
      let name: string | null;
      let anchor: string;
      let names: string[] = [];
      if (candidate.id === null) {
        if (emptyAnchor === null) {
          if (candidate.tag === 'dt') openTerm = { start: candidate.start, text: candidate.text?.() ?? '' };
          continue;
        }
        name = bounded(unanchoredName(candidate.tag, candidate.text?.() ?? ''));
        anchor = emptyAnchor;
        emptyAnchor = null;
      } else {
        const text = candidate.text?.() ?? '';
        name = definitionName(candidate.tag, candidate.id, text, qualifier);
        anchor = candidate.id;
        emptyAnchor = name === null && text.trim() === '' ? candidate.id : null;
        if (emptyAnchor !== null && openTerm !== null && candidate.start <= openTerm.start + openTerm.text.length + 1) {
          name = bounded(nameFromText(openTerm.text, true));
          if (name !== null) emptyAnchor = null;
        }
        openTerm = null;
        // A term listing several names (`autovacuum_vacuum_threshold, toast.autovacuum_vacuum_threshold (integer)`).
        if (name === null && candidate.tag === 'dt') names = listedNames(text);
      }
      if (name !== null) names = [name];
      for (const each of names) {
        // Each program's option is its own definition (`startapp --template`, `startproject --template`).
        const key = anchor.startsWith('cmdoption-') ? `${each}#${anchor}` : each;
        if (seen.has(key) || found.length >= MAX_DEFINITIONS) continue;
        seen.add(key);
        found.push({ name: each, anchor, start: candidate.start });
      }
      if (found.length >= MAX_DEFINITIONS) break;
    }
    return found;
  }
}

/** The item whose members a page's ids name, and how a member joins it (`Vec::push`, `String.charAt`). */
export interface Qualifier {
  name: string;
  joiner: '::' | '.';
}

/** The name an anchored element defines, or null when it defines none. */
export function definitionName(tag: string, id: string, text: string, qualifier: Qualifier | null = null): string | null {
  const fromId = nameFromId(id, text, qualifier);
  if (fromId !== null) return bounded(fromId);
  if (!NAMING_ELEMENTS.has(tag) || text === '') return null;
  const isTerm = /^term-/.test(id);
  // A glossary entry names a term of words; other elements name an identifier.
  if (isTerm || (tag === 'dt' && !CODE_LIKE.test(text) && text.length <= 60 && !text.includes('('))) return bounded(cleanText(text));
  return bounded(nameFromText(text, tag === 'dt'));
}

function nameFromId(id: string, text: string, qualifier: Qualifier | null): string | null {
  if (TEXT_PREFIXES.test(id) || LAYOUT_IDS.test(id) || GENERATED_ID.test(id)) return null;
  const member = MEMBER_PREFIXES.exec(id);
  if (member) {
    // rustdoc numbers repeated members (`method.try_from-1`).
    const name = withoutParameters(id.slice(member[0].length)).replace(/-\d+$/, '');
    return qualifier ? `${qualifier.name}::${name}` : name;
  }
  // Javadoc's members: `equals(java.lang.Object)`, Java 8's `equals-java.lang.Object-`, of the page's class.
  const javaMethod = /^([\p{L}_$][\p{L}\p{N}_$]*)(?:\(.*\)|-.*-)$/u.exec(safeDecode(id));
  if (javaMethod && qualifier?.joiner === '.') return `${qualifier.name}.${javaMethod[1]}`;
  const prefix = NAME_PREFIXES.exec(id);
  if (prefix) {
    const name = withoutParameters(id.slice(prefix[0].length));
    return /[\p{L}_]/u.test(name) ? name : null;
  }
  let name = safeDecode(id);
  if (/\s/.test(name)) return null;
  // The id is the name the element shows (`<a id="ProxyPass">ProxyPass</a>`).
  const shown = firstIdentifier(text);
  // A Javadoc field (`<section id="CASE_INSENSITIVE_ORDER"><h3>CASE_INSENSITIVE_ORDER</h3>`) is its class's.
  if (shown !== null && withoutParameters(name) === shown) return memberOf(shown, qualifier);
  // Java 8's Javadoc: `substring-int-int-` (a slug never ends with a hyphen).
  if (/^[\p{L}_$][\p{L}\p{N}_$]*-.*-$/u.test(name)) return withoutParameters(name);
  if (!CODE_LIKE.test(name) || !/[\p{L}]/u.test(name)) return null;
  // A heading's slug (`appending-to-a-string-with-push_str`) names no identifier.
  if (name.includes('-') && /^[\p{Ll}\p{N}_-]+$/u.test(name)) return null;
  name = withoutParameters(name);
  return /^[\p{L}_$][\p{L}\p{N}_$.:#-]*$/u.test(name) && !/--/.test(name) ? memberOf(name, qualifier) : null;
}

/** A bare name on a Javadoc class page is a member of the class (`CASE_INSENSITIVE_ORDER` → `String.CASE_INSENSITIVE_ORDER`). */
function memberOf(name: string, qualifier: Qualifier | null): string {
  return qualifier?.joiner === '.' && /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name) ? `${qualifier.name}.${name}` : name;
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

/** What an element without an id names when an empty anchor just before it marks a definition. */
function unanchoredName(tag: string, text: string): string | null {
  const clean = cleanText(text);
  // DocBook's function tables: `<a class="indexterm"></a> <code class="function">btrim</code> ( string text … )`.
  if (CODE_ELEMENTS.has(tag)) return WHOLE_IDENTIFIER.test(clean) ? clean : null;
  // DocBook's reference pages: `<a class="indexterm"></a><h2>ALTER DOMAIN</h2>`.
  if (tag !== 'dt' && tag !== 'a' && COMMAND.test(clean)) return clean;
  return nameFromText(text, tag === 'dt');
}

function isNameCode(tag: string, className: string | undefined): boolean {
  return className !== undefined && CODE_ELEMENTS.has(tag) && NAME_CLASSES.test(className);
}

/** The names a term lists before its parenthesis, when each is an identifier and one at least is code-like. */
function listedNames(text: string): string[] {
  const clean = cleanText(text);
  const paren = clean.indexOf('(');
  const parts = (paren > 0 ? clean.slice(0, paren) : clean).split(',').map((part) => part.trim());
  if (parts.length < 2 || parts.length > 8) return [];
  if (!parts.every((part) => WHOLE_IDENTIFIER.test(part)) || !parts.some((part) => CODE_LIKE.test(part))) return [];
  return parts.filter((part) => part.length <= MAX_NAME_CHARS);
}

/**
 * The item a page defines, from its first top heading: an `a::b::C` path (rustdoc, whose members
 * are qualified by the last part, `Vec::push`), or a kind and a name (`Primitive Type i16`,
 * Javadoc's `Class String`, whose members are `String.charAt`).
 */
export function pageItem(firstHeading: string | undefined): { name: string; qualifier: string; joiner: '::' | '.' } | null {
  if (firstHeading === undefined) return null;
  const path = /[\p{L}_][\p{L}\p{N}_]*(?:::[\p{L}_][\p{L}\p{N}_]*)+/u.exec(firstHeading);
  if (path) return { name: path[0], qualifier: path[0].slice(path[0].lastIndexOf('::') + 2), joiner: '::' };
  const kind = ITEM_KINDS.exec(cleanText(firstHeading));
  if (!kind) return null;
  const java = /^(?:Class|Interface|Enum Class|Record Class|Annotation Interface|Annotation Type) /.test(kind[0]) || kind[1].includes('.');
  return { name: kind[1], qualifier: kind[1], joiner: java ? '.' : '::' };
}
