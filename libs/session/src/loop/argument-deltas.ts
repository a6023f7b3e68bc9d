/**
 * Turns a model's streamed tool-argument fragments into ToolUseDelta events that never carry a secret.
 * A fragment may end inside a registered value, so each call holds back its text's trailing start of
 * a secret until the next fragment (or the call's end) shows what it is. No match can straddle what was
 * already emitted: a match starting there would have been such a trailing start, so redacting only the
 * held-back tail is the same as redacting the whole text, and the work stays linear in its length.
 */
import { type EventFields, type ToolUseDelta } from '../query-event.js';
import { type SessionRedaction } from '../redaction.js';

interface PendingCall {
  readonly toolName: string;
  /** Received and not yet emitted. */
  tail: string;
}

export class ArgumentDeltas {
  readonly #redaction: SessionRedaction;
  readonly #calls = new Map<string, PendingCall>();

  constructor(redaction: SessionRedaction) {
    this.#redaction = redaction;
  }

  start(callId: string, toolName: string): void {
    this.#calls.set(callId, { toolName, tail: '' });
  }

  /** The event for a fragment, or undefined when all of it is held back (or the call never started). */
  delta(callId: string, fragment: string): EventFields<ToolUseDelta> | undefined {
    const call = this.#calls.get(callId);
    if (!call) return undefined;
    call.tail += fragment;
    const { registry } = this.#redaction;
    const safe = registry.size === 0 ? call.tail.length : registry.trimPartialSecret(call.tail).length;
    return this.#emit(callId, call, safe);
  }

  /** The call is complete: what was held back is not a secret's start after all (or is a whole one). */
  stop(callId: string): EventFields<ToolUseDelta> | undefined {
    const call = this.#calls.get(callId);
    if (!call) return undefined;
    this.#calls.delete(callId);
    return this.#emit(callId, call, call.tail.length);
  }

  #emit(callId: string, call: PendingCall, length: number): EventFields<ToolUseDelta> | undefined {
    if (length === 0) return undefined;
    const text = call.tail.slice(0, length);
    call.tail = call.tail.slice(length);
    return {
      type: 'ToolUseDelta',
      callId,
      toolName: this.#redaction.text(call.toolName),
      argumentsDelta: this.#redaction.text(text),
    };
  }
}
