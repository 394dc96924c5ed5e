/**
 * A page's main content: what is indexed and shown in snippets, without the site's boilerplate.
 * The parser (html.ts) marks regions of the page's visible text while it reads: `<main>` and
 * `role=main`, `<article>`, and boilerplate — headers and footers outside them, `<aside>`,
 * navigation, banner, content-info and search landmarks, cookie and consent banners, and blocks
 * made mostly of links (menus, link lists, sidebars). Here those marks become the main text:
 * the main regions if the page has them (else its articles, else all of it), less boilerplate.
 * Sections are the headings found in that text, with their anchors and offsets.
 */

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

export interface MainContent {
  text: string;
  /** Headings inside the main text. */
  headings: string[];
  sections: PageSectionMark[];
}

/** Main regions shorter than this share of the page (and than MIN_MAIN_CHARS) are not trusted (a script-built page). */
const MIN_MAIN_SHARE = 0.1;
const MIN_MAIN_CHARS = 200;

export function mainContent(fullText: string, regions: readonly ContentRegion[], headings: readonly HeadingMark[]): MainContent {
  const boilerplate = merge(regions.filter((r) => r.kind === 'boilerplate'));
  let kept = [{ start: 0, end: fullText.length }];
  for (const kind of ['main', 'article'] as const) {
    const marked = merge(regions.filter((r) => r.kind === kind));
    const length = marked.reduce((sum, r) => sum + r.end - r.start, 0);
    if (marked.length > 0 && (length >= MIN_MAIN_CHARS || length >= fullText.length * MIN_MAIN_SHARE)) {
      kept = marked;
      break;
    }
  }
  const intervals = subtract(kept, boilerplate);
  // The main text: kept intervals joined by a space, each trimmed.
  const pieces: Array<{ from: number; to: number; at: number }> = [];
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
  for (const heading of headings) {
    const piece = pieces.find((p) => heading.start >= p.from - 1 && heading.start < p.to);
    if (!piece) continue;
    inMain.push(heading.text);
    const section: PageSectionMark = { heading: heading.text, start: piece.at + Math.max(0, heading.start - piece.from) };
    if (heading.anchor) section.anchor = heading.anchor;
    if (sections.length === 0 || section.start > sections[sections.length - 1].start) sections.push(section);
  }
  return { text, headings: inMain, sections };
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
