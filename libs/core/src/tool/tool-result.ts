/** What a tool hands back to the model: text, optionally structured data and file attachments. */
import { type InlineFile } from '../model/attachments.js';

export interface ToolSuccess {
  readonly type: 'Success';
  readonly output: string;
  readonly data?: unknown;
  readonly attachments: readonly InlineFile[];
}

/** A failure is still a result: its text is what the model sees, so it can correct itself. */
export interface ToolFailure {
  readonly type: 'Failure';
  readonly output: string;
  readonly attachments: readonly InlineFile[];
}

export type ToolResult = ToolSuccess | ToolFailure;

export interface SuccessExtras {
  readonly data?: unknown;
  readonly attachments?: readonly InlineFile[];
}

export const ToolResult = {
  success(output: string, extras: SuccessExtras = {}): ToolSuccess {
    return Object.freeze({
      type: 'Success',
      output,
      ...(extras.data === undefined ? {} : { data: extras.data }),
      attachments: Object.freeze([...(extras.attachments ?? [])]),
    });
  },
  /** `failure("could not read", cause)` → `"could not read: <cause message>"`. */
  failure(error: string, cause?: unknown): ToolFailure {
    const suffix = cause === undefined ? '' : `: ${cause instanceof Error ? cause.message : String(cause)}`;
    return Object.freeze({ type: 'Failure', output: `${error}${suffix}`, attachments: Object.freeze([]) });
  },
  isSuccess(result: ToolResult): result is ToolSuccess {
    return result.type === 'Success';
  },
} as const;
