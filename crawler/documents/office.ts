/**
 * DOCX (mammoth, which turns Word's styles into HTML headings, lists and links) and ODT (the
 * OpenDocument zip's content.xml turned into the same plain HTML) become pages through the one
 * HTML parser. Metadata — title and language — come from docProps/core.xml and meta.xml.
 *
 * A zip is checked before it is inflated: entries the reader needs must declare at most
 * `maxEntryBytes` uncompressed (a zip bomb is refused by its own header); a header that lies is
 * caught by the worker's memory limit.
 */
import { unzipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import mammoth from 'mammoth';
import { parseHtml } from '../html.ts';
import { documentPage, documentTitle, primaryLanguage } from './page-of-text.ts';
import { DocumentError, type ExtractedDocument } from './types.ts';

export interface OfficeLimits {
  /** Largest uncompressed size a zip entry may declare. */
  maxEntryBytes: number;
}

/** The named entries of a zip, after checking every entry's declared size. */
function readZip(bytes: Uint8Array, wanted: (name: string) => boolean, limits: OfficeLimits): Record<string, Uint8Array> {
  let total = 0;
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        if (file.originalSize > limits.maxEntryBytes || total > 4 * limits.maxEntryBytes) {
          throw new DocumentError('ELSE_DOCUMENT_TOO_LARGE', `zip entry ${file.name} inflates to ${file.originalSize} bytes (limit ${limits.maxEntryBytes}): refused as a zip bomb`);
        }
        return wanted(file.name);
      },
    });
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError('ELSE_DOCUMENT_FORMAT', `not a readable zip: ${(error as Error).message}`);
  }
}

const utf8 = new TextDecoder('utf-8');

/** Title and language of a Dublin Core block (core.xml of DOCX, meta.xml of ODT). */
function dublinCore(xml: string | undefined): { title?: string; language?: string } {
  const out: { title?: string; language?: string } = {};
  if (!xml) return out;
  let field: 'title' | 'language' | undefined;
  const parser = new Parser(
    {
      onopentag: (name) => {
        field = name === 'dc:title' ? 'title' : name === 'dc:language' ? 'language' : undefined;
      },
      ontext: (text) => {
        if (field) out[field] = (out[field] ?? '') + text;
      },
      onclosetag: () => {
        field = undefined;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return out;
}

export async function extractDocx(bytes: Uint8Array, url: string, limits: OfficeLimits): Promise<ExtractedDocument> {
  const entries = readZip(bytes, (name) => name === 'docProps/core.xml' || name === 'word/document.xml', limits);
  if (!entries['word/document.xml']) throw new DocumentError('ELSE_DOCUMENT_FORMAT', 'not a DOCX: no word/document.xml');
  const core = dublinCore(entries['docProps/core.xml'] ? utf8.decode(entries['docProps/core.xml']) : undefined);
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) })).value;
  } catch (error) {
    throw new DocumentError('ELSE_DOCUMENT_FORMAT', `unreadable DOCX: ${(error as Error).message}`);
  }
  return fromHtml('docx', html, url, core);
}

export async function extractOdt(bytes: Uint8Array, url: string, limits: OfficeLimits): Promise<ExtractedDocument> {
  const entries = readZip(bytes, (name) => name === 'content.xml' || name === 'meta.xml' || name === 'mimetype', limits);
  const mimetype = entries.mimetype ? utf8.decode(entries.mimetype).trim() : '';
  if (!entries['content.xml'] || (mimetype !== '' && !mimetype.startsWith('application/vnd.oasis.opendocument.text'))) {
    throw new DocumentError('ELSE_DOCUMENT_FORMAT', `not an ODT text document${mimetype ? ` (${mimetype})` : ''}`);
  }
  const meta = dublinCore(entries['meta.xml'] ? utf8.decode(entries['meta.xml']) : undefined);
  const { html, language } = odtContentToHtml(utf8.decode(entries['content.xml']));
  return fromHtml('odt', html, url, { title: meta.title, language: meta.language ?? language });
}

function fromHtml(type: 'docx' | 'odt', html: string, url: string, metadata: { title?: string; language?: string }): ExtractedDocument {
  const parsed = parseHtml(`<!doctype html><html><body>${html}</body></html>`, url);
  const title = documentTitle(metadata.title, parsed.headings, parsed.text, url);
  return { type, page: documentPage({ title, headings: [...parsed.headings], text: parsed.text, links: [...parsed.links], language: primaryLanguage(metadata.language) }), sections: [] };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * OpenDocument text as plain HTML: `text:h` → `<hN>`, `text:p` → `<p>` (`<h1>` in a title style), `text:a` → `<a href>`,
 * spaces, tabs and line breaks as text; everything else contributes its text. The language is
 * the default paragraph style's `fo:language` when the document says it.
 */
export function odtContentToHtml(xml: string): { html: string; language?: string } {
  const out: string[] = [];
  let language: string | undefined;
  let headingLevel = 1;
  let paragraphIsTitle = false;
  const parentStyle = new Map<string, string>();
  const parser = new Parser(
    {
      onopentag: (name, attributes) => {
        switch (name) {
          case 'text:h': {
            headingLevel = Math.min(6, Math.max(1, Number(attributes['text:outline-level'] ?? 1) || 1));
            out.push(`<h${headingLevel}>`);
            break;
          }
          case 'text:p':
            // A paragraph in a title style is the document's title, as a word processor shows it.
            // (Automatic styles such as `P12` name the style they derive from.)
            const style = attributes['text:style-name'] ?? '';
            paragraphIsTitle = /(?:^|[-_ ])title$/i.test(parentStyle.get(style) ?? style);
            out.push(paragraphIsTitle ? '<h1>' : '<p>');
            break;
          case 'text:a':
            out.push(`<a href="${escapeHtml(attributes['xlink:href'] ?? '')}">`);
            break;
          case 'text:s':
            out.push(' '.repeat(Math.min(64, Number(attributes['text:c'] ?? 1) || 1)));
            break;
          case 'text:tab':
          case 'text:line-break':
            out.push(' ');
            break;
          case 'style:style':
            if (attributes['style:name'] && attributes['style:parent-style-name']) parentStyle.set(attributes['style:name'], attributes['style:parent-style-name']);
            break;
          case 'style:text-properties':
            if (!language && attributes['fo:language'] && attributes['fo:language'] !== 'zxx') language = attributes['fo:language'];
            break;
          default:
            break;
        }
      },
      ontext: (text) => out.push(escapeHtml(text)),
      onclosetag: (name) => {
        if (name === 'text:h') out.push(`</h${headingLevel}>`);
        else if (name === 'text:p') out.push(paragraphIsTitle ? '</h1>\n' : '</p>\n');
        else if (name === 'text:a') out.push('</a>');
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return { html: out.join(''), language };
}
