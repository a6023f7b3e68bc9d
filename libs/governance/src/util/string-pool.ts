/**
 * Shares one string object among equal strings. Every request body parses its origin, tool name and
 * session id into fresh strings, and each pending evaluation keeps them until it is audited: with the
 * pool, a backlog of thousands of entries holds a handful of copies. Bounded: when full it starts
 * afresh, which costs only sharing, never correctness.
 */
export class StringPool {
  #strings = new Map<string, string>();

  constructor(private readonly maxSize: number = 4_096) {}

  intern(value: string): string {
    const known = this.#strings.get(value);
    if (known !== undefined) return known;
    if (this.#strings.size >= this.maxSize) this.#strings = new Map();
    this.#strings.set(value, value);
    return value;
  }
}
