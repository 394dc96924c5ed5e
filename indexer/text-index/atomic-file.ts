/** Crash-safe file writes: write a temporary file, fsync it, rename it over the target, fsync the directory. */
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

let counter = 0;

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.${counter++}.tmp`);
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, path);
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
