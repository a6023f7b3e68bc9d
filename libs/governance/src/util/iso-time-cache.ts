/** `toISOString()` of the last millisecond formatted, reused while the clock stays on it. */
export class IsoTimeCache {
  #ms = Number.NaN;
  #iso = '';

  format(ms: number): string {
    if (ms !== this.#ms) {
      this.#iso = new Date(ms).toISOString();
      this.#ms = ms;
    }
    return this.#iso;
  }
}
