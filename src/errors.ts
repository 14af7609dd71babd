/**
 * One error hierarchy for the whole bot (DESIGN principle 4).
 * A UserError is the user's own doing (bad input, not allowed, not found): its message is shown to them,
 * privately. Anything else is our fault: logged with the interaction id, answered with an apology.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(message: string) {
    super(message);
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
