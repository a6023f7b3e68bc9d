/**
 * Provenance-tagged structured output: the typed value plus, per field, the sources that back it and a
 * calibrated confidence.
 */
import { InvalidArgumentError } from '../common/helios-error.js';
import { requireNonBlank } from '../common/validate.js';

export const Confidence = { LOW: 'LOW', MEDIUM: 'MEDIUM', HIGH: 'HIGH' } as const;
export type Confidence = (typeof Confidence)[keyof typeof Confidence];

/** Reads a confidence by name, case-insensitively, as models write it. */
export function parseConfidence(wire: string): Confidence {
  const upper = wire.trim().toUpperCase();
  if (upper === 'LOW' || upper === 'MEDIUM' || upper === 'HIGH') return upper;
  throw new InvalidArgumentError(`unknown confidence '${wire}'; expected LOW, MEDIUM or HIGH`);
}

export interface Source {
  readonly title?: string;
  /** Any URI scheme (https:, file:, doc:…). */
  readonly url: string;
  readonly excerpts: readonly string[];
}

export interface FieldProvenance {
  readonly field: string;
  readonly sources: readonly Source[];
  readonly reasoning: string;
  readonly confidence: Confidence;
}

export interface Provenanced<T> {
  readonly output: T;
  readonly provenance: readonly FieldProvenance[];
}

export function source(url: string, options: { title?: string; excerpts?: readonly string[] } = {}): Source {
  return Object.freeze({
    url: requireNonBlank(url, 'source url'),
    ...(options.title === undefined ? {} : { title: options.title }),
    excerpts: Object.freeze([...(options.excerpts ?? [])]),
  });
}

/** One field's provenance as written; `sources` defaults to none. */
export type FieldProvenanceInput = Omit<FieldProvenance, 'sources'> & {
  readonly sources?: readonly Source[];
};

export function fieldProvenance(entry: FieldProvenanceInput): FieldProvenance {
  return Object.freeze({
    field: requireNonBlank(entry.field, 'provenance field'),
    sources: Object.freeze([...(entry.sources ?? [])]),
    reasoning: requireNonBlank(entry.reasoning, 'provenance reasoning'),
    confidence: entry.confidence,
  });
}

/** The entries recorded for one field, in order. */
export function provenanceFor<T>(value: Provenanced<T>, field: string): readonly FieldProvenance[] {
  return value.provenance.filter((entry) => entry.field === field);
}
