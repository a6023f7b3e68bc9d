/**
 * A tool call's streamed argument text as an object. Nothing is lost when the model wrote something
 * that is not a JSON object: the text is kept under `_raw` so the tool (or the session) can say why.
 */
import { isRecord } from './error-mapping.js';

export function parseToolArguments(text: string): Readonly<Record<string, unknown>> {
  if (text.trim() === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return isRecord(parsed) ? parsed : { _raw: text };
  } catch {
    return { _raw: text };
  }
}
