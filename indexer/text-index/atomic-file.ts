/** Crash-safe file writes: write a temporary file, fsync it, rename it over the target, fsync the directory. */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/** Writes `data` (or its parts, one after the other) to `path`: a reader sees the old file or the whole new one. */
export async function writeFileAtomic(path: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
  const handle = await open(temporary, 'w');
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) await handle.writeFile(data);
    else for (const part of data) for (let at = 0; at < part.byteLength; ) at += (await handle.write(part, at, part.byteLength - at)).bytesWritten;
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}

/** Makes a rename durable (a no-op where directories cannot be opened, e.g. Windows). */
export async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Best effort: some platforms and file systems refuse fsync on a directory.
  } finally {
    await handle?.close();
  }
}

/**
 * A file written in pieces, synchronously (in a worker, or where blocking is acceptable), with
 * the same guarantee as writeFileAtomic: nothing appears under `path` until `commit` has fsynced
 * the whole file; `abort` removes the temporary file.
 */
export class AtomicFileWriter {
  readonly temporary: string;
  private fd: number | null;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private written = 0;

  constructor(readonly path: string) {
    this.temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
    this.fd = openSync(this.temporary, 'w');
  }

  /** Bytes appended so far. */
  get size(): number {
    return this.written + this.pendingBytes;
  }

  append(bytes: Uint8Array): void {
    if (bytes.length >= WRITE_CHUNK_BYTES) {
      // Large parts go out as they are, without a copy.
      this.flush();
      this.writeAll(bytes);
      return;
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= WRITE_CHUNK_BYTES) this.flush();
  }

  commit(): void {
    this.flush();
    fsyncSync(this.fd!);
    closeSync(this.fd!);
    this.fd = null;
    renameSync(this.temporary, this.path);
    try {
      const directory = openSync(dirname(this.path), 'r');
      try {
        fsyncSync(directory);
      } finally {
        closeSync(directory);
      }
    } catch {
      // Best effort, as in syncDirectory.
    }
  }

  abort(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.temporary, { force: true });
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const chunk = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.writeAll(chunk);
  }

  private writeAll(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd!, bytes, at, bytes.length - at);
    this.written += bytes.length;
  }
}

const WRITE_CHUNK_BYTES = 4 << 20;
