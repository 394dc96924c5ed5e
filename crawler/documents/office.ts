/**
 * DOCX (mammoth, which turns Word's styles into HTML headings, lists and links) and ODT (the
 * OpenDocument zip's content.xml turned into the same plain HTML) become pages through the one
 * HTML parser. Metadata — title and language — come from docProps/core.xml and meta.xml.
 *
 * A zip is read under a byte budget (zip-entries.ts): entries must declare at most `maxEntryBytes`
 * uncompressed, and an entry whose data inflates past what its header declares is refused as soon
 * as it does. mammoth reads a DOCX with a zip reader of its own that trusts the headers, so it is
 * given a copy of the file rebuilt from the entries read this way, stored uncompressed.
 */
import { zipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import mammoth from 'mammoth';
import { parseHtml } from '../html.ts';
import { documentPage, documentTitle, primaryLanguage } from './page-of-text.ts';
import { DocumentError, type ExtractedDocument } from './types.ts';
import { readZipEntries } from './zip-entries.ts';

export interface OfficeLimits {
  /** Largest uncompressed size a zip entry may have (declared or actual). */
  maxEntryBytes: number;
}

/** The named entries of a zip, read under the limits. */
function readZip(bytes: Uint8Array, wanted: (name: string) => boolean, limits: OfficeLimits): Record<string, Uint8Array> {
  return Object.fromEntries(readZipEntries(bytes, wanted, { maxEntryBytes: limits.maxEntryBytes, maxTotalBytes: 4 * limits.maxEntryBytes }));
}

/** Pictures and embedded files of a DOCX: not read (mammoth is told not to read images). */
const DOCX_MEDIA = /^word\/(media|embeddings)\//;

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
  const entries = readZip(bytes, (name) => !DOCX_MEDIA.test(name), limits);
  if (!entries['word/document.xml']) throw new DocumentError('ELSE_DOCUMENT_FORMAT', 'not a DOCX: no word/document.xml');
  const core = dublinCore(entries['docProps/core.xml'] ? utf8.decode(entries['docProps/core.xml']) : undefined);
  // The copy mammoth reads: the entries as read here, stored (level 0), so it inflates nothing.
  const checked = zipSync(entries, { level: 0 });
  let html: string;
  try {
    const noImages = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(checked.buffer, checked.byteOffset, checked.length) }, { convertImage: noImages })).value;
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
