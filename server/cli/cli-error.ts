/** An error the user can fix: printed without a stack, exit code 2 (usage) unless said otherwise. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
