/**
 * The manifest names the segments of the current generation, their documents and deletions. It is
 * written last (atomically), so a crash at any point leaves either the old or the new generation.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-file.ts';
import { IndexCorruptError } from './errors.ts';

export const MANIFEST_FORMAT = 'lse-text-manifest/1';
export const MANIFEST_FILE = 'manifest.json';

const SegmentEntrySchema = z.object({
  name: z.string().regex(/^[\w.-]+$/),
  docIds: z.array(z.number().int().nonnegative()),
  deletedIds: z.array(z.number().int().nonnegative()),
  /** Parallel to docIds: each document's version (document-version.ts); absent in older indexes. */
  versions: z.array(z.string()).optional(),
});

const ManifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  generation: z.number().int().nonnegative(),
  nextSegmentNumber: z.number().int().nonnegative(),
  maxTextChars: z.number().int().positive(),
  segments: z.array(SegmentEntrySchema),
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestSegment = z.infer<typeof SegmentEntrySchema>;

/** The manifest of an index directory, or undefined when there is none yet. */
export async function readManifest(directory: string): Promise<Manifest | undefined> {
  const path = join(directory, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new IndexCorruptError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new IndexCorruptError(`${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) throw new IndexCorruptError(`${path} is not a valid manifest: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export async function writeManifest(directory: string, manifest: Manifest | string | readonly Uint8Array[]): Promise<void> {
  await writeFileAtomic(join(directory, MANIFEST_FILE), typeof manifest === 'string' || Array.isArray(manifest) ? manifest : JSON.stringify(manifest));
}

// A segment's page ids and versions (a million at a million pages) never change while its files
// live: each is serialised once, keyed by the segment's stored form, and a swap writes only the
// deleted ids of every segment anew. Serialising every entry whose deletions changed took a pause
// that grew with the index (an update touching every large segment).
const stableJson = new WeakMap<object, Uint8Array>();
const encoder = new TextEncoder();

/**
 * The JSON of a segment's fixed part, serialised on first use. A server serialises each segment's
 * ahead, a segment a step, after it opens the index, so that its first commit (an update's) does
 * not serialise a million ids and versions in one pause.
 */
export function fixedJson({ key, fixed }: Pick<ManifestPart, 'key' | 'fixed'>): Uint8Array {
  let json = stableJson.get(key);
  if (json === undefined) {
    const { versionsJson, ...named } = fixed();
    const head = encoder.encode(`${JSON.stringify(named).slice(0, -1)},"versions":`);
    json = new Uint8Array(head.length + versionsJson.length + 1);
    json.set(head);
    json.set(versionsJson, head.length);
    json[json.length - 1] = 0x7d; // }
    stableJson.set(key, json);
  }
  return json;
}

/**
 * What the manifest says of one segment: its fixed part (asked once per `key`; the versions as
 * their JSON array, written without a string per page) and its deletions.
 */
export interface ManifestPart {
  key: object;
  fixed: () => Omit<ManifestSegment, 'deletedIds' | 'versions'> & { versionsJson: Uint8Array };
  deletedIds: readonly number[];
}

/**
 * The manifest's JSON bytes, in pieces written one after the other: each segment's fixed part as
 * encoded once, and only the header and the deletions encoded anew (at a million pages the whole
 * text is over 20 MB, which encoding at every commit held the event loop for tens of ms).
 */
export function manifestParts(header: Omit<Manifest, 'segments'>, segments: readonly ManifestPart[]): Uint8Array[] {
  const head = JSON.stringify({ ...header, segments: [] });
  const parts: Uint8Array[] = [encoder.encode(`${head.slice(0, -'[]}'.length)}[`)];
  segments.forEach((part, i) => {
    const fixed = fixedJson(part);
    parts.push(fixed.subarray(0, fixed.length - 1), encoder.encode(`,"deletedIds":${JSON.stringify(part.deletedIds)}}${i < segments.length - 1 ? ',' : ''}`));
  });
  parts.push(encoder.encode(']}'));
  return parts;
}
