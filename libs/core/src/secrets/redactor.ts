/**
 * An immutable snapshot of a SecretRegistry that replaces every registered value in a text with
 * `<redacted:NAME>` in one pass. Occurrences that overlap collapse into one marker naming the first
 * (earliest start, then longest, then first registered), so no tail of an overlapping secret survives;
 * adjacent occurrences keep a marker each.
 */
import { AhoCorasick } from './aho-corasick.js';

export interface RedactionResult {
  readonly text: string;
  /** Markers written per secret name. */
  readonly counts: ReadonlyMap<string, number>;
  readonly total: number;
}

/** A run of overlapping occurrences, replaced by one marker. */
interface Group {
  start: number;
  end: number;
  /** The occurrence that names the group: its pattern and where it starts. */
  pattern: number;
  patternStart: number;
}

const MARKER = /<redacted:([^>]*)>/g;

export function redactionMarker(name: string): string {
  return `<redacted:${name}>`;
}

export class Redactor {
  static readonly EMPTY = new Redactor([]);

  readonly #names: readonly string[];
  readonly #automaton: AhoCorasick | undefined;
  readonly #lengths: readonly number[];

  /** Entries in registration order: `[name, value]`. */
  constructor(entries: readonly (readonly [string, string])[]) {
    this.#names = Object.freeze(entries.map(([name]) => name));
    this.#lengths = entries.map(([, value]) => value.length);
    this.#automaton = entries.length === 0 ? undefined : new AhoCorasick(entries.map(([, value]) => value));
    Object.freeze(this);
  }

  get names(): readonly string[] {
    return this.#names;
  }

  redact(text: string): RedactionResult {
    const { groups } = this.#groups(text);
    if (groups.length === 0) return Object.freeze({ text, counts: new Map(), total: 0 });
    const counts = new Map<string, number>();
    const parts: string[] = [];
    let cursor = 0;
    for (const group of groups) {
      const name = this.#names[group.pattern] as string;
      parts.push(text.slice(cursor, group.start), redactionMarker(name));
      counts.set(name, (counts.get(name) ?? 0) + 1);
      cursor = group.end;
    }
    parts.push(text.slice(cursor));
    return Object.freeze({ text: parts.join(''), counts, total: groups.length });
  }

  /** The redacted text alone. */
  redactText(text: string): string {
    return this.redact(text).text;
  }

  /** Whether any registered value occurs in `text`. */
  leaks(text: string): boolean {
    return this.#groups(text).groups.length > 0;
  }

  /**
   * For output cut at a size cap: drops a trailing start of a registered value, so half a secret never
   * survives the cut. A complete value at the end is kept (redaction masks it); a cut that would fall
   * inside a complete occurrence drops that occurrence too rather than leave its head behind.
   */
  trimPartialSecret(text: string): string {
    if (!this.#automaton) return text;
    const { groups, finalState } = this.#groups(text);
    let cut = text.length - this.#automaton.partialSuffixLength(finalState);
    for (let i = groups.length - 1; i >= 0; i -= 1) {
      const group = groups[i] as Group;
      if (group.end <= cut) break;
      if (group.start < cut) cut = group.start;
    }
    return text.slice(0, cut);
  }

  /** Markers per registered name in an already redacted text. */
  counts(redactedText: string): ReadonlyMap<string, number> {
    const known = new Set(this.#names);
    const counts = new Map<string, number>();
    for (const match of redactedText.matchAll(MARKER)) {
      const name = match[1] as string;
      if (known.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    return counts;
  }

  #groups(text: string): { groups: Group[]; finalState: number } {
    const groups: Group[] = [];
    if (!this.#automaton) return { groups, finalState: 0 };
    const finalState = this.#automaton.scan(text, (start, end, pattern) => {
      const merged: Group = { start, end, pattern, patternStart: start };
      // A later-ending match may reach back over several earlier groups; fold them all into one.
      for (let last = groups.at(-1); last !== undefined && last.end > start; last = groups.at(-1)) {
        groups.pop();
        if (this.#namesFirst(last, merged)) {
          merged.pattern = last.pattern;
          merged.patternStart = last.patternStart;
        }
        merged.start = Math.min(merged.start, last.start);
      }
      groups.push(merged);
    });
    return { groups, finalState };
  }

  /** Whether `a`'s naming occurrence comes first: earlier start, then longer, then registered first. */
  #namesFirst(a: Group, b: Group): boolean {
    if (a.patternStart !== b.patternStart) return a.patternStart < b.patternStart;
    const lengthA = this.#lengths[a.pattern] as number;
    const lengthB = this.#lengths[b.pattern] as number;
    if (lengthA !== lengthB) return lengthA > lengthB;
    return a.pattern <= b.pattern;
  }
}
