/** The one error `fromWire` throws: the input is not the documented wire form. */
import { HeliosError } from '@helios/core';

export class WireFormatError extends HeliosError {
  readonly code = 'INVALID_WIRE_EVENT';

  /** `path` names the bad field from the root, e.g. `event.result.attachments[0].data`. */
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`invalid wire form at ${path}: ${problem}`);
  }
}

/** A value outside its closed family reached the wire code: its caller went around the types. */
export function unknownVariant(family: string, value: unknown): WireFormatError {
  const type = (value as { readonly type?: unknown } | null)?.type;
  return new WireFormatError('type', `${family} has no variant ${JSON.stringify(type)}`);
}
