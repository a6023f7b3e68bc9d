/** Checks a `{output, provenance}` value: the output by its own schema, each entry by shape and validator. */
import { type FieldError, type SchemaCheck } from './json-schema.js';
import { LENIENT_FIELD_PROVENANCE_SCHEMA } from './provenance-json-schema.js';
import { validateJson } from './schema-validator.js';
import {
  type FieldProvenance,
  type Provenanced,
  fieldProvenance,
  parseConfidence,
  source,
} from '../provenance/provenance.js';
import { type ProvenanceValidator } from '../provenance/provenance-validator.js';

export function checkProvenanced<T>(
  value: unknown,
  // Only its check is needed: taking the check, not OutputSchema, keeps this file out of a cycle with it.
  inner: { check(value: unknown): SchemaCheck<T> },
  validator: ProvenanceValidator,
): SchemaCheck<Provenanced<T>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, errors: [{ path: '', message: 'expected an object with output and provenance' }] };
  }
  const record = value as Record<string, unknown>;
  const errors: FieldError[] = [];
  const output = inner.check(record['output']);
  if (!output.ok) errors.push(...output.errors.map((e) => ({ ...e, path: prefix('output', e.path) })));
  const entries = record['provenance'];
  const provenance: FieldProvenance[] = [];
  if (!Array.isArray(entries)) {
    errors.push({
      path: 'provenance',
      message: entries === undefined ? 'is required but missing' : 'expected array',
    });
  } else {
    entries.forEach((entry: unknown, index) => {
      const path = `provenance[${index}]`;
      const shape = validateJson(entry, LENIENT_FIELD_PROVENANCE_SCHEMA, path);
      if (shape.length > 0) {
        errors.push(...shape);
        return;
      }
      const parsed = toFieldProvenance(entry as RawEntry, path, errors);
      if (!parsed) return;
      const verdict = validator(parsed);
      if (verdict.ok) provenance.push(parsed);
      else errors.push({ path, message: verdict.message });
    });
  }
  if (errors.length > 0 || !output.ok) return { ok: false, errors };
  return { ok: true, value: Object.freeze({ output: output.value, provenance: Object.freeze(provenance) }) };
}

interface RawEntry {
  field: string;
  sources: { title?: string; url: string; excerpts: string[] }[];
  reasoning: string;
  confidence: string;
}

function toFieldProvenance(entry: RawEntry, path: string, errors: FieldError[]): FieldProvenance | undefined {
  try {
    const sources = entry.sources.map((s) =>
      source(s.url, { excerpts: s.excerpts, ...(s.title === undefined ? {} : { title: s.title }) }),
    );
    return fieldProvenance({
      field: entry.field,
      confidence: parseConfidence(entry.confidence),
      reasoning: entry.reasoning,
      sources,
    });
  } catch (error) {
    errors.push({ path, message: (error as Error).message });
    return undefined;
  }
}

function prefix(head: string, path: string): string {
  if (path === '') return head;
  return path.startsWith('[') ? `${head}${path}` : `${head}.${path}`;
}
