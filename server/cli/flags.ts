/** Reading command-line flags into checked values; every error names the flag. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import { CliError } from './cli-error.ts';

export type FlagOptions = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<T extends FlagOptions>(argv: string[], options: T, command: string) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw new CliError(`lse ${command}: ${(error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, '')}\nRun "lse help ${command}" for the flags.`);
  }
}

/** A number flag, or `undefined` when absent. */
export function numberFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number)) throw new CliError(`--${flag} must be a number, got "${value}"`);
  return number;
}

/** Validates settings with a zod schema; an error names the offending flag. */
export function checkedSettings<S extends z.ZodType>(schema: S, input: unknown, flagOf: (key: string) => string = (key) => key): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = String(issue.path[0] ?? '');
  throw new CliError(`--${flagOf(key)}: ${issue.message}`);
}
