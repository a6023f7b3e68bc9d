/** zod issues rewritten as Helios field errors, so zod and JSON-Schema outputs diff the same way. */
import { type z } from 'zod';
import { type FieldError } from './json-schema.js';
import { jsonTypeOf } from './schema-validator.js';

export function zodFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({ path: formatPath(issue.path), message: describe(issue) }));
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return 'is required but missing';
    return `expected ${issue.expected}, got ${jsonTypeOf(issue.input)}`;
  }
  return issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}
