/**
 * Base of every error Helios throws on purpose. `code` is stable across releases so callers (and the
 * API's one mapping to HTTP status) can branch on it without parsing messages. Codes are UPPER_SNAKE
 * (`SESSION_CLOSED`); the type refuses a lower-case one.
 */
export abstract class HeliosError extends Error {
  abstract readonly code: Uppercase<string>;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A library input broke its documented contract (blank name, negative count, …). */
export class InvalidArgumentError extends HeliosError {
  readonly code = 'INVALID_ARGUMENT';
}
