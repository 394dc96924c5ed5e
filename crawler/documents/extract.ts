/** One document of a known type to a page (run inside a worker thread: see worker-pool.ts). */
import { extractDocx, extractOdt, type OfficeLimits } from './office.ts';
import { extractPdf } from './pdf.ts';
import type { DocumentType, ExtractedDocument } from './types.ts';

export function extractDocument(type: DocumentType, bytes: Uint8Array, url: string, limits: OfficeLimits): Promise<ExtractedDocument> {
  switch (type) {
    case 'pdf':
      return extractPdf(bytes, url);
    case 'docx':
      return extractDocx(bytes, url, limits);
    case 'odt':
      return extractOdt(bytes, url, limits);
  }
}
