/**
 * Policy parsing: YAML → `${VAR}` interpolation → strict schema → cross-field rules. Every problem of a
 * stage is collected before throwing, so an operator fixes the whole file in one pass. Compiling the
 * document into what the engine runs is engine/compile-policy.ts (engine/load-policy.ts does both).
 */
import { parseDocument } from 'yaml';
import { type z } from 'zod';
import { interpolateEnvironment, type EnvironmentMap } from './interpolate.js';
import { type PolicyDocument, policyDocumentSchema } from './policy-schema.js';
import { crossFieldIssues } from './cross-field-rules.js';
import { type PolicyConfigIssue, PolicyConfigError, formatIssuePath } from './policy-config-error.js';

export interface LoadPolicyOptions {
  /** Variables for `${VAR}`; pass `process.env` at the edge, a fixed map in tests. */
  readonly env: EnvironmentMap;
}

/** Parses and validates a policy document; throws {@link PolicyConfigError} listing every problem. */
export function parsePolicyDocument(text: string, options: LoadPolicyOptions): PolicyDocument {
  // `<<` merge keys, as the reference's YAML loader reads them (its docs use them with `x-` anchors).
  const yaml = parseDocument(text, { prettyErrors: false, uniqueKeys: true, merge: true });
  if (yaml.errors.length > 0) {
    throw new PolicyConfigError(
      yaml.errors.map((error) => ({ path: '', message: `YAML: ${error.message.split('\n')[0] ?? ''}` })),
    );
  }
  const raw: unknown = yaml.toJS({ maxAliasCount: 100 });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new PolicyConfigError([{ path: '', message: 'the policy document must be a mapping' }]);
  }
  const issues: PolicyConfigIssue[] = [];
  const interpolated = interpolateEnvironment(raw, options.env, issues) as Record<string, unknown>;
  if (issues.length > 0) throw new PolicyConfigError(issues);

  // Root keys starting with `x-` only hold YAML anchors; inside sections they are ordinary unknown keys.
  const withoutExtensions = Object.fromEntries(
    Object.entries(interpolated).filter(([key]) => !key.startsWith('x-')),
  );
  // With the input on each issue, a wrong type ("enabled: yes") is told apart from a missing key.
  const parsed = policyDocumentSchema.safeParse(withoutExtensions, { reportInput: true });
  if (!parsed.success) {
    throw new PolicyConfigError([
      ...schemaIssues(parsed.error.issues),
      ...crossFieldIssuesOfValidSections(withoutExtensions),
    ]);
  }
  const crossField = crossFieldIssues(parsed.data);
  if (crossField.length > 0) throw new PolicyConfigError(crossField);
  return parsed.data;
}

/**
 * With a schema error somewhere, the sections that did pass are still checked against each other, so an
 * operator sees every problem in one load. Each section is parsed alone (sections have no schema rule
 * across them); a cross-field rule runs only if every section it reads parsed.
 */
function crossFieldIssuesOfValidSections(raw: Record<string, unknown>): PolicyConfigIssue[] {
  const shape = policyDocumentSchema.shape;
  const sections: Record<string, unknown> = {};
  const valid = new Set<keyof PolicyDocument>();
  for (const section of Object.keys(shape) as (keyof typeof shape)[]) {
    const parsed = shape[section].safeParse(raw[section]);
    if (!parsed.success) continue;
    sections[section] = parsed.data;
    valid.add(section);
  }
  // Only the valid sections are present; crossFieldIssues reads no other (each rule declares its own).
  return crossFieldIssues(sections as PolicyDocument, (section) => valid.has(section));
}

function schemaIssues(issues: readonly z.core.$ZodIssue[]): PolicyConfigIssue[] {
  const out: PolicyConfigIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      // One issue per unknown key, each with its own full path.
      for (const key of issue.keys) {
        out.push({ path: formatIssuePath([...issue.path, key]), message: 'unknown key' });
      }
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // Report the branch that got furthest instead of a bare "invalid input".
      const best = issue.errors.reduce((a, b) => (deepest(b) > deepest(a) ? b : a));
      out.push(...schemaIssues(best.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }))));
    } else {
      out.push({ path: formatIssuePath(issue.path), message: describe(issue) });
    }
  }
  return out;
}

function deepest(issues: readonly z.core.$ZodIssue[]): number {
  return Math.max(0, ...issues.map((issue) => issue.path.length));
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  return issue.message;
}
