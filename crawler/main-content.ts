/**
 * A page's main content: what is indexed and shown in snippets, without the site's boilerplate.
 * The parser (html.ts) marks regions of the page's visible text while it reads: `<main>` and
 * `role=main`, `<article>`, and boilerplate — headers and footers outside them, `<aside>`,
 * navigation, banner, content-info and search landmarks, cookie and consent banners, and blocks
 * made mostly of links (menus, link lists, sidebars). An id or class that names chrome (`menu`,
 * `footer`, `sidebar`) is a hint: the block is chrome when it is also short or made of links, and
 * content when it is prose or holds a heading (a docs section `id="menus"`, Django's
 * `csrf-cookie-name`); a block that holds headings is never a menu by link density alone
 * (an index of settings, rustdoc signatures). Here those marks become
 * the main text: the main regions if the page has them (else its one article; several articles
 * are entries of the page, and the text around them is content too; else all of it), less
 * boilerplate.
 * Sections are the headings found in that text, with their anchors and offsets, and definitions
 * the identifiers defined there (definitions.ts).
 */
import type { DefinitionMark } from './definitions.ts';

export interface ContentRegion {
  kind: 'main' | 'article' | 'boilerplate';
  /** Offsets in the page's full visible text. */
  start: number;
  end: number;
}

export interface HeadingMark {
  text: string;
  /** Offset of the heading in the full text. */
  start: number;
  /** The heading's `id`, or the id or name of an anchor in it, or of the section it opens. */
  anchor?: string;
}

export interface PageSectionMark {
  heading: string;
  anchor?: string;
  /** Offset in the main text. */
  start: number;
}

export interface PageDefinitionMark {
  /** The qualified name the page defines (definitions.ts). */
  name: string;
  anchor: string;
  /** Offset in the main text. */
  start: number;
}

export interface MainContent {
  text: string;
  /** Headings inside the main text. */
  headings: string[];
  sections: PageSectionMark[];
  /** Identifiers defined inside the main text (none in site chrome), in text order; absent for documents (PDF…). */
  definitions?: PageDefinitionMark[];
}

/** Main regions shorter than this share of the page (and than MIN_MAIN_CHARS) are not trusted (a script-built page). */
const MIN_MAIN_SHARE = 0.1;
const MIN_MAIN_CHARS = 200;

export function mainContent(fullText: string, regions: readonly ContentRegion[], headings: readonly HeadingMark[], definitions: readonly DefinitionMark[] = []): MainContent {
  const boilerplate = merge(regions.filter((r) => r.kind === 'boilerplate'));
  let kept = [{ start: 0, end: fullText.length }];
  for (const kind of ['main', 'article'] as const) {
    const marked = merge(regions.filter((r) => r.kind === kind));
    // Several articles are items of the page (a reference's function entries), not its main
    // content: the module summary and description around them are content too.
    if (kind === 'article' && marked.length > 1) break;
    const length = marked.reduce((sum, r) => sum + r.end - r.start, 0);
    if (marked.length > 0 && (length >= MIN_MAIN_CHARS || length >= fullText.length * MIN_MAIN_SHARE)) {
      kept = marked;
      break;
    }
  }
  const intervals = subtract(kept, boilerplate);
  // The main text: kept intervals joined by a space, each trimmed.
  const pieces: Piece[] = [];
  let text = '';
  for (const { start, end } of intervals) {
    let from = start;
    let to = end;
    while (from < to && fullText.charCodeAt(from) === 0x20) from++;
    while (to > from && fullText.charCodeAt(to - 1) === 0x20) to--;
    if (from === to) continue;
    if (text !== '') text += ' ';
    pieces.push({ from, to, at: text.length });
    text += fullText.slice(from, to);
  }
  const inMain: string[] = [];
  const sections: PageSectionMark[] = [];
  const pieceOf = pieceFinder(pieces);
  for (const heading of headings) {
    const piece = pieceOf(heading.start);
    // A heading whose text the page's text does not show there was never shown (rustdoc's sidebar).
    if (!piece || !shownAt(fullText, heading)) continue;
    inMain.push(heading.text);
    const section: PageSectionMark = { heading: heading.text, start: piece.at + Math.max(0, heading.start - piece.from) };
    if (heading.anchor) section.anchor = heading.anchor;
    if (sections.length === 0 || section.start > sections[sections.length - 1].start) sections.push(section);
  }
  const defined: PageDefinitionMark[] = [];
  for (const definition of [...definitions].sort((a, b) => a.start - b.start)) {
    const piece = pieceOf(definition.start);
    if (piece) defined.push({ name: definition.name, anchor: definition.anchor, start: piece.at + Math.max(0, definition.start - piece.from) });
  }
  return { text, headings: inMain, sections, definitions: defined };
}

/** Whether the full text shows the heading's opening at its offset (give or take the space before it). */
function shownAt(fullText: string, heading: HeadingMark): boolean {
  const opening = heading.text.slice(0, 16);
  const at = fullText.indexOf(opening, heading.start);
  return at >= 0 && at <= heading.start + 2;
}

type Piece = { from: number; to: number; at: number };

/** The kept piece holding a full-text offset, for offsets asked in ascending order (a binary search otherwise). */
function pieceFinder(pieces: readonly Piece[]): (offset: number) => Piece | undefined {
  return (offset) => {
    let lo = 0;
    let hi = pieces.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const p = pieces[mid];
      if (offset < p.from - 1) hi = mid - 1;
      else if (offset >= p.to) lo = mid + 1;
      else return p;
    }
    return undefined;
  };
}

type Interval = { start: number; end: number };

function merge(regions: readonly Interval[]): Interval[] {
  const sorted = regions.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const r of sorted) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ start: r.start, end: r.end });
  }
  return merged;
}

function subtract(kept: readonly Interval[], removed: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const k of kept) {
    let start = k.start;
    for (const r of removed) {
      if (r.end <= start || r.start >= k.end) continue;
      if (r.start > start) out.push({ start, end: r.start });
      start = Math.max(start, r.end);
    }
    if (start < k.end) out.push({ start, end: k.end });
  }
  return out;
}
