// Worker threads start outside the parent's TypeScript loader: register tsx, then load the worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
