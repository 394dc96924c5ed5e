import createError from '@fastify/error';

const CommandLineError = createError<string, [string]>('LSE_CLI_USAGE', '%s');

/**
 * An error the user can fix: printed without a stack, exit code 2 (usage, code `LSE_CLI_USAGE`) unless
 * said otherwise (exit code 1: the command failed, `LSE_CLI_FAILED`).
 */
export class CliError extends CommandLineError {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'CliError';
    this.code = exitCode === 2 ? 'LSE_CLI_USAGE' : 'LSE_CLI_FAILED';
  }
}
