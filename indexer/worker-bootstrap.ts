/**
 * Where a worker thread running one of the product's TypeScript modules starts. Node 20 loads a
 * worker's entry before `--import` hooks are in place, so the entry is a tiny bootstrap module
 * that registers tsx's loader and then imports the module. The URLs are absolute, so that workers
 * start whatever the current directory is.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

let tsxApi: string | undefined;

/** The bootstrap of a worker that runs the TypeScript module at `moduleUrl` (a file: URL). */
export function typeScriptWorkerUrl(moduleUrl: URL): URL {
  tsxApi ??= tsxEsmApiUrl();
  return new URL(`data:text/javascript,${encodeURIComponent(`import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(moduleUrl.href)});`)}`);
}

function tsxEsmApiUrl(): string {
  // require.resolve picks the CommonJS build; the worker needs the ESM one named in tsx's exports.
  const packageJson = createRequire(import.meta.url).resolve('tsx/package.json');
  const exports = (JSON.parse(readFileSync(packageJson, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> }).exports;
  const entry = exports['./esm/api']?.import?.default ?? './dist/esm/api/index.mjs';
  return new URL(entry, pathToFileURL(packageJson)).href;
}
