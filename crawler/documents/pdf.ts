/**
 * PDF text, title, language, links and page offsets with unpdf (a serverless build of Mozilla's
 * pdf.js: no canvas, no native modules). Each page's text is one block; `sections` say where each
 * page starts, with the anchor `page=N` PDF viewers understand.
 */
import { definePDFJSModule, getDocumentProxy } from 'unpdf';
import { DEFAULT_MAX_LINKS, type ParsedLink } from '../html.ts';
import { documentLink, documentPage, documentTitle, primaryLanguage } from './page-of-text.ts';
import { DocumentError, type ExtractedDocument, type TextSection } from './types.ts';

interface TextItem {
  str?: string;
  hasEOL?: boolean;
}

/**
 * pdf.js's serverless build says on load that Node should use its legacy build; the serverless
 * build is the one that runs here without canvas or native modules, so that line would only land
 * in every crawl's output. It alone is held back, while the module loads.
 */
const LEGACY_BUILD_WARNING = 'Warning: Please use the `legacy` build in Node.js environments.';
let pdfjsLoaded: Promise<void> | undefined;

function loadPdfjs(): Promise<void> {
  pdfjsLoaded ??= definePDFJSModule(async () => {
    const log = console.log;
    console.log = (...args: unknown[]) => {
      if (args.length !== 1 || args[0] !== LEGACY_BUILD_WARNING) log(...args);
    };
    try {
      return await import('unpdf/pdfjs');
    } finally {
      console.log = log;
    }
  });
  return pdfjsLoaded;
}

export async function extractPdf(bytes: Uint8Array, url: string): Promise<ExtractedDocument> {
  if (!isPdf(bytes)) throw new DocumentError('ELSE_DOCUMENT_FORMAT', 'not a PDF (no %PDF- header)');
  await loadPdfjs();
  let pdf;
  try {
    pdf = await getDocumentProxy(bytes, { isEvalSupported: false, verbosity: 0 } as never);
  } catch (error) {
    throw new DocumentError('ELSE_DOCUMENT_FORMAT', `unreadable PDF: ${(error as Error).message}`);
  }
  try {
    const meta = await pdf.getMetadata().catch(() => undefined);
    const info = (meta?.info ?? {}) as { Title?: unknown; Language?: unknown };
    const metadata = meta?.metadata as { get?: (name: string) => unknown } | null | undefined;
    const parts: string[] = [];
    const sections: TextSection[] = [];
    const links: ParsedLink[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const pageText = (content.items as TextItem[])
        .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
        .join('')
        .replace(/[ \t]+/g, ' ')
        .trim();
      for (const annotation of (await page.getAnnotations()) as Array<{ subtype?: string; url?: string }>) {
        if (annotation.subtype === 'Link' && typeof annotation.url === 'string' && links.length < DEFAULT_MAX_LINKS) links.push(documentLink(annotation.url, '', url));
      }
      page.cleanup();
      if (pageText === '') continue;
      if (parts.length > 0) length += 1;
      sections.push({ heading: `Page ${number}`, anchor: `page=${number}`, start: length });
      parts.push(pageText);
      length += pageText.length;
    }
    const text = parts.join('\n');
    const metadataTitle = typeof info.Title === 'string' ? info.Title : stringOf(metadata?.get?.('dc:title'));
    const language = primaryLanguage(typeof info.Language === 'string' ? info.Language : stringOf(metadata?.get?.('dc:language')));
    const title = documentTitle(metadataTitle, [], text, url);
    return { type: 'pdf', page: documentPage({ title, headings: [], text, links, language, sections }), sections };
  } finally {
    await pdf.destroy();
  }
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isPdf(bytes: Uint8Array): boolean {
  // The header may follow some junk within the first 1024 bytes, as readers allow.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  return head.includes('%PDF-');
}
