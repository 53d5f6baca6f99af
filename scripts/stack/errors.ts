/** A failure the user can act on: the CLI prints its message alone, without a stack trace. */
export class StackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StackError';
  }
}
