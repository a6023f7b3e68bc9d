/**
 * A provider API key that cannot leak by accident: held in a private field, so `util.inspect`,
 * JSON.stringify, template strings and error messages never show it; `redact` masks it in any text a
 * provider echoes back (an error body that quotes the rejected key).
 */
import { Redactor } from '@helios/core';

const REDACTED = '<redacted>';
const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

export class ApiKey {
  readonly #value: string;
  readonly #redactor: Redactor;

  private constructor(value: string) {
    this.#value = value;
    this.#redactor = new Redactor([['api key', value]]);
    Object.freeze(this);
  }

  /** A key from configuration; blank or absent means "no key". */
  static of(value: string | undefined): ApiKey | undefined {
    return value === undefined || value.trim() === '' ? undefined : new ApiKey(value);
  }

  /** The key itself. Read it only to put it on the wire. */
  reveal(): string {
    return this.#value;
  }

  /** `text` with every occurrence of the key replaced by a marker. */
  redact(text: string): string {
    return this.#redactor.redactText(text);
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspectSymbol](): string {
    return `ApiKey(${REDACTED})`;
  }
}
