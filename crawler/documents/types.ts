/**
 * What the crawler reads besides HTML: PDF, DOCX and ODT documents. A document becomes a page
 * like any other (title, text, headings, links), with its type and, for PDFs, the character
 * offset where each page starts (`#page=N` links a hit to its page).
 */
import type { ParsedPage } from '../html.ts';

export type DocumentType = 'pdf' | 'docx' | 'odt';
export const DOCUMENT_TYPES: readonly DocumentType[] = ['pdf', 'docx', 'odt'];

/** A heading of the stored text with its anchor and where it starts in `text`. */
export interface TextSection {
  heading: string;
  anchor?: string;
  start: number;
}

export interface ExtractedDocument {
  type: DocumentType;
  page: ParsedPage;
  sections: TextSection[];
}

const MEDIA_TYPES: Record<string, DocumentType> = {
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.oasis.opendocument.text': 'odt',
};
const EXTENSIONS: Record<string, DocumentType> = { '.pdf': 'pdf', '.docx': 'docx', '.odt': 'odt' };
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/download', 'application/force-download']);

/** The document type of a response: its media type, or its URL's extension when the media type says nothing. */
export function documentTypeOf(mediaType: string, url: string): DocumentType | undefined {
  const byType = MEDIA_TYPES[mediaType];
  if (byType || !GENERIC_TYPES.has(mediaType)) return byType;
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return undefined;
  }
  const dot = path.lastIndexOf('.');
  return dot >= 0 ? EXTENSIONS[path.slice(dot)] : undefined;
}

/** A document that cannot be read, with why. */
export class DocumentError extends Error {
  constructor(
    readonly code: 'ELSE_DOCUMENT_FORMAT' | 'ELSE_DOCUMENT_TOO_LARGE' | 'ELSE_DOCUMENT_TIMEOUT' | 'ELSE_DOCUMENT_MEMORY' | 'ELSE_DOCUMENT_WORKER',
    message: string,
  ) {
    super(message);
    this.name = 'DocumentError';
  }
}
