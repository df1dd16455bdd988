// Errors a user can act on: one line, no stack trace, exit status >= 2 (kubectl diff's "error").
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** The first line of an error's message, for one-line reports. */
export function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return (msg.split('\n').find((l) => l.trim() !== '') ?? msg).trim();
}
