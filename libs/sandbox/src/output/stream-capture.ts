/**
 * One output stream of one execute, in characters (UTF-16 code units): kept up to a cap, the rest
 * counted. `finish` turns it into what the model may see: a cut stream first loses any trailing start
 * of a registered secret, then ends in `[output truncated: <n> more chars discarded]`, where n counts
 * everything not shown.
 */
import { type Redactor } from '@helios/core';

export class StreamCapture {
  readonly #cap: number;
  #parts: string[] = [];
  #kept = 0;
  #discarded = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  append(text: string): void {
    const room = this.#cap - this.#kept;
    const taken = text.length <= room ? text : text.slice(0, room);
    if (taken !== '') this.#parts.push(taken);
    this.#kept += taken.length;
    this.#discarded += text.length - taken.length;
  }

  /** Characters a sender discarded before they reached this capture. */
  discardedElsewhere(count: number): void {
    this.#discarded += count;
  }

  get truncated(): boolean {
    return this.#discarded > 0;
  }

  /** The stream as shown, before redaction: cut, trimmed of a partial secret, marked. */
  finish(redactor: Redactor): string {
    const kept = this.#parts.join('');
    if (!this.truncated) return kept;
    const trimmed = redactor.trimPartialSecret(kept);
    const discarded = this.#discarded + kept.length - trimmed.length;
    const separator = trimmed === '' || trimmed.endsWith('\n') ? '' : '\n';
    return `${trimmed}${separator}[output truncated: ${discarded} more chars discarded]`;
  }
}
