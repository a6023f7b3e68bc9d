/** The errors of the annotation store and the prompt registry: stable codes, no HTTP statuses. */
import { HeliosError } from '@helios/core';

/**
 * A SCIM filter that cannot be parsed or compiled: bad syntax, an attribute outside the allow-list, or
 * a value of the wrong type for its attribute. `position` is the 0-based offset in the filter text.
 */
export class ScimFilterError extends HeliosError {
  readonly code = 'INVALID_FILTER';

  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`invalid filter at position ${position}: ${reason}`);
  }
}

/** No prompt has this name (and version or label). */
export class PromptNotFoundError extends HeliosError {
  readonly code = 'PROMPT_NOT_FOUND';
}

/** `render` was not given a value for every `{{variable}}` of the template; `missing` names them. */
export class PromptVariableMissingError extends HeliosError {
  readonly code = 'PROMPT_VARIABLE_MISSING';

  constructor(
    readonly prompt: string,
    readonly missing: readonly string[],
  ) {
    super(`prompt ${prompt} needs a value for ${missing.map((name) => `{{${name}}}`).join(', ')}`);
  }
}
