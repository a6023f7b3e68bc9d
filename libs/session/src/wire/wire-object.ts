/**
 * Reads one JSON object of the wire form field by field. Every reader checks the field's JSON type (and
 * its range where the value has one) and throws a WireFormatError naming the field's path. Only own
 * fields count; fields the reader does not ask for are ignored.
 */
import { WireFormatError } from './wire-error.js';

const DECIMAL = /^(?:0|[1-9][0-9]*)$/;
/** Standard base64 with padding, as `Buffer#toString('base64')` writes it. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type Reader<T> = (value: unknown, path: string) => T;

export function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, JSON-ish description of what was found instead, for error messages. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const text = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    return `the string ${text}`;
  }
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

export function mismatch(path: string, expected: string, found: unknown): WireFormatError {
  return new WireFormatError(
    path,
    found === undefined
      ? `${expected} is required but missing`
      : `expected ${expected}, got ${describe(found)}`,
  );
}

export function readString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw mismatch(path, 'a string', value);
  return value;
}

export function readNonBlank(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw mismatch(path, 'a non-blank string', value);
  return value;
}

export function readCount(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw mismatch(path, 'a non-negative integer', value);
  }
  return value;
}

export class WireObject {
  private constructor(
    private readonly fields: Readonly<Record<string, unknown>>,
    readonly path: string,
  ) {}

  static at(value: unknown, path: string): WireObject {
    if (!isPlainObject(value)) throw mismatch(path, 'an object', value);
    return new WireObject(value, path);
  }

  pathOf(key: string): string {
    return `${this.path}.${key}`;
  }

  /** The field's value, or undefined when it is absent (or not an own field). */
  get(key: string): unknown {
    return Object.hasOwn(this.fields, key) ? this.fields[key] : undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  read<T>(key: string, reader: Reader<T>): T {
    return reader(this.get(key), this.pathOf(key));
  }

  optional<T>(key: string, reader: Reader<T>): T | undefined {
    return this.has(key) ? this.read(key, reader) : undefined;
  }

  string(key: string): string {
    return this.read(key, readString);
  }

  nonBlank(key: string): string {
    return this.read(key, readNonBlank);
  }

  /** A non-negative safe integer: counts, indices, epoch and duration milliseconds. */
  count(key: string): number {
    return this.read(key, readCount);
  }

  /** A finite number ≥ 0 (a fraction such as ContextWarning's usagePct). */
  nonNegative(key: string): number {
    const value = this.get(key);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw mismatch(this.pathOf(key), 'a finite number ≥ 0', value);
    }
    return value;
  }

  boolean(key: string): boolean {
    const value = this.get(key);
    if (typeof value !== 'boolean') throw mismatch(this.pathOf(key), 'a boolean', value);
    return value;
  }

  /** Micro-USD: a decimal string of digits without sign or leading zeros (`"0"`, `"1250"`). */
  microUsd(key: string): bigint {
    const value = this.get(key);
    if (typeof value !== 'string' || !DECIMAL.test(value)) {
      throw mismatch(this.pathOf(key), 'a decimal string of micro-USD', value);
    }
    return BigInt(value);
  }

  /** Standard padded base64 of at least one byte. */
  base64(key: string): string {
    const value = this.get(key);
    if (typeof value !== 'string' || value === '' || !BASE64.test(value)) {
      throw mismatch(this.pathOf(key), 'non-empty base64', value);
    }
    return value;
  }

  /** One of a closed set of strings. */
  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const value = this.get(key);
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      throw mismatch(this.pathOf(key), `one of ${allowed.join(', ')}`, value);
    }
    return value as T;
  }

  object(key: string): WireObject {
    return WireObject.at(this.get(key), this.pathOf(key));
  }

  array<T>(key: string, reader: Reader<T>): readonly T[] {
    const value = this.get(key);
    if (!Array.isArray(value)) throw mismatch(this.pathOf(key), 'an array', value);
    return Object.freeze(value.map((item: unknown, index) => reader(item, `${this.pathOf(key)}[${index}]`)));
  }

  /** An object used as a map; keys are kept as own data properties (`__proto__` included). */
  record<T>(key: string, reader: Reader<T>): Readonly<Record<string, T>> {
    const map = this.object(key);
    return Object.freeze(
      Object.fromEntries(Object.keys(map.fields).map((name) => [name, map.read(name, reader)])),
    );
  }

  /** A JSON object whose values are free-form JSON (tool arguments), taken as it is. */
  jsonObject(key: string): Readonly<Record<string, unknown>> {
    const value = this.get(key);
    if (!isPlainObject(value)) throw mismatch(this.pathOf(key), 'an object', value);
    return value;
  }
}

/** `{ [key]: value }`, or `{}` when value is undefined: absent optional fields stay absent. */
export function ifPresent<K extends string, V>(key: K, value: V | undefined): { readonly [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { readonly [P in K]: V });
}

/**
 * A frozen lookup table keyed by variant name, without a prototype: a name the family lacks (even
 * `constructor` or `__proto__`) finds nothing rather than an inherited member.
 */
export function variantTable<T extends object>(table: T): T {
  return Object.freeze(Object.assign(Object.create(null) as T, table));
}

/** The names of a closed family, from a record the compiler checks has every one of them. */
export function variantNames<T extends string>(names: Readonly<Record<T, true>>): readonly T[] {
  return Object.freeze(Object.keys(names) as T[]);
}
