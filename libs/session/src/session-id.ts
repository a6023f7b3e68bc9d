/** Session ids: 1–128 characters of [A-Za-z0-9._:-], not starting with '.', so they are safe as file names and URL segments. */
import { InvalidArgumentError, newId } from '@helios/core';

const SESSION_ID = /^[A-Za-z0-9_:-][A-Za-z0-9._:-]{0,127}$/;

export function isValidSessionId(id: unknown): id is string {
  return typeof id === 'string' && SESSION_ID.test(id);
}

export function requireSessionId(id: unknown): string {
  if (!isValidSessionId(id)) {
    throw new InvalidArgumentError(
      `session id must be 1-128 characters of [A-Za-z0-9._:-], not starting with '.', got ${JSON.stringify(id)}`,
    );
  }
  return id;
}

export function newSessionId(): string {
  return `sess-${newId()}`;
}
