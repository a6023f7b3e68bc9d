/**
 * A model answer that is not valid JSON for the requested schema. It carries the per-field diff and the
 * correction text a session sends back as a user turn; the raw answer is kept only when the model's
 * raw-output capture policy allows it.
 */
import { HeliosError } from '../common/helios-error.js';
import { describeFieldError, type FieldError } from './json-schema.js';

export class StructuredOutputParseError extends HeliosError {
  readonly code = 'STRUCTURED_OUTPUT_PARSE';
  readonly errors: readonly FieldError[];
  /** The model's answer, or undefined when raw-output capture is DISABLED. */
  readonly rawContent: string | undefined;

  constructor(errors: readonly FieldError[], rawContent: string | undefined) {
    const list = errors.length > 0 ? errors : [{ path: '', message: 'does not match the schema' }];
    super(`structured output does not match the schema: ${list.map(describeFieldError).join('; ')}`);
    this.errors = Object.freeze([...list]);
    this.rawContent = rawContent;
  }

  /** The instruction a session sends back so the model re-emits corrected JSON. */
  correctionMessage(): string {
    const lines = this.errors.map((error) => `- ${describeFieldError(error)}`);
    return [
      'Your previous response did not match the required JSON schema.',
      'Fix the fields listed below and reply again with only the corrected JSON value, no prose:',
      ...lines,
    ].join('\n');
  }
}
