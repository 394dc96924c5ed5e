/**
 * Reading a PDF prints nothing: pdf.js's serverless build announces on load that Node should use
 * its legacy build, and that line would land in every crawl's output. Run in a fresh process,
 * since pdf.js loads once per process.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('reading a PDF', () => {
  it('prints nothing, and reads the text and title', () => {
    const script = `
      import { extractPdf } from './crawler/documents/pdf.ts';
      import { makePdf } from './bench/simple-pdf.ts';
      const doc = await extractPdf(new Uint8Array(makePdf('Opening hours', [['The library opens at nine.']])), 'http://site.test/hours.pdf');
      process.stderr.write(JSON.stringify({ title: doc.page.title, text: doc.page.content.text }));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toMatchObject({ title: 'Opening hours', text: expect.stringContaining('The library opens at nine.') });
  });
});
