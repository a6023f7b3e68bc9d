/**
 * Rug-pull detection: which aspects of a tool's definition differ from its baseline. Comparison is by
 * canonical JSON, so key order never counts as a change.
 */
import { type ObservedToolDefinition } from './observed-tool-definition.js';
import { canonicalJson } from '../util/canonical-json.js';
import { type DriftAspect, type DriftChange } from './drift-change.js';

const ASPECTS: readonly (DriftAspect & keyof ObservedToolDefinition)[] = [
  'annotations',
  'inputSchema',
  'outputSchema',
  'description',
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
    if (canonicalJson(baseline[aspect] ?? null) !== canonicalJson(current[aspect] ?? null))
      changes.push({ aspect });
  }
  return changes.length > 0 ? changes : [{ aspect: 'other' }];
}
