// The document worker thread of a parsing process (see parse-process.mjs). pdf.js is loaded before tsx's loader is
// registered: through the loader its 1.4 MB module costs about 150 MB more per process. pdf.js
// says on load that Node should use its legacy build; that line alone is held back.
import { register } from 'tsx/esm/api';

const log = console.log;
console.log = (...args) => {
  if (!(args.length === 1 && typeof args[0] === 'string' && args[0].startsWith('Warning: Please use the `legacy` build'))) log(...args);
};
try {
  await import('unpdf/pdfjs');
} finally {
  console.log = log;
}
register();
await import('./worker.ts');
