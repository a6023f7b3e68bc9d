/**
 * Rug-pull detection: which aspects of a tool's definition differ from its baseline, with both values
 * (the reference's annotation cache). Comparison is by canonical JSON, so key order never counts as a
 * change; an absent aspect differs from a `null` one, as in the reference.
 */
import { type ObservedToolDefinition } from './observed-tool-definition.js';
import { canonicalJson } from '../util/canonical-json.js';
import { type DriftAspect, type DriftChange } from './drift-change.js';

/** The reference's order (ASPECT_FIELDS): changes, and the drift reason listing them, follow it. */
const ASPECTS: readonly (DriftAspect & keyof ObservedToolDefinition)[] = [
  'annotations',
  'inputSchema',
  'description',
  'outputSchema',
  'title',
];

const NO_CHANGES: readonly DriftChange[] = Object.freeze([]);

export function diffDefinitions(
  baseline: ObservedToolDefinition,
  current: ObservedToolDefinition,
): readonly DriftChange[] {
  // A store hands back the very baseline object while nothing changed: the common case costs nothing.
  if (baseline === current || canonicalJson(baseline) === canonicalJson(current)) return NO_CHANGES;
  const changes: DriftChange[] = [];
  for (const aspect of ASPECTS) {
    if (fingerprint(baseline[aspect]) !== fingerprint(current[aspect]))
      changes.push(change(aspect, baseline[aspect], current[aspect]));
  }
  return changes.length > 0 ? changes : [{ aspect: 'other', baseline, current }];
}

/** Absent is not `null`: the reference's canonicalize gives `''` for undefined. */
function fingerprint(value: unknown): string {
  return value === undefined ? '' : canonicalJson(value);
}

function change(aspect: DriftAspect, baseline: unknown, current: unknown): DriftChange {
  if (baseline === undefined) return { aspect, current };
  return current === undefined ? { aspect, baseline } : { aspect, baseline, current };
}
