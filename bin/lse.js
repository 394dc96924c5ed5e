#!/usr/bin/env node
// The `lse` command. The sources are TypeScript; tsx's loader runs them without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
