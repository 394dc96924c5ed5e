/**
 * Runs the crash test's writer (store-writer.ts) on a data directory and kills it with SIGKILL
 * once it has acknowledged `commits` commits; resolves with the last commit it acknowledged.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export async function runStoreWriterUntilKilled(dir: string, commits: number): Promise<number> {
  const writer = fileURLToPath(new URL('./store-writer.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', writer, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let acknowledged = -1;
  let buffer = '';
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) acknowledged = Number(line.split(' ')[1]);
      if (acknowledged >= commits && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', () => resolve());
  });
  return acknowledged;
}
