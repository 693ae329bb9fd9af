/** What a caught value says, for a log line or an error reply: an Error's message, anything else as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The same, with the stack where there is one: for logs of failures nobody expected. */
export function errorDetail(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
