/**
 * Ajv's errors rewritten as Helios field errors, so JSON-Schema and zod outputs diff the same way:
 * `a.b[0]` paths (a missing or unexpected property is named by its own path), messages that say what
 * was expected and what was found, one line per failed `anyOf`/`oneOf` rather than every branch's
 * errors, and the order of the value's own fields (missing required ones first).
 */
import { type ErrorObject } from 'ajv';
import { type FieldError, type JsonSchema, jsonTypeOf } from './json-schema.js';

type Segment = string | number;

interface Step {
  readonly segment: Segment;
  /** The array index, or 1 + the property's position in its object (0 when the property is missing). */
  readonly rank: number;
}

interface Located {
  readonly steps: readonly Step[];
  readonly keywordRank: number;
  readonly message: string;
}

/** Requires errors from a validator compiled with `verbose: true` (the data and schema they quote). */
export function ajvFieldErrors(errors: readonly ErrorObject[], value: unknown, prefix: string): FieldError[] {
  const located = withoutPatternBesideFormat(withoutShadowedByType(withoutBranchErrors(errors)))
    .map((error) => locate(error, value))
    .sort(compareLocated);
  // Two keywords can say the same thing (zod's tuples have both `items: false` and `maxItems`).
  const lines = new Map<string, FieldError>();
  for (const error of located) {
    const path = joinPath(prefix, error.steps);
    lines.set(`${path}\n${error.message}`, { path, message: error.message });
  }
  return [...lines.values()];
}

/** What one Ajv error says, in Helios's words ("expected integer, got string"). */
export function describeAjvError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const data: unknown = error.data;
  const limit = LIMITS[error.keyword];
  if (limit) return `must have ${limit.bound} ${String(params['limit'])} ${limit.unit}, got ${sizeOf(data)}`;
  switch (error.keyword) {
    case 'type':
      return `expected ${alternatives(error.schema)}, got ${jsonTypeOf(data)}`;
    case 'required':
      return 'is required but missing';
    case 'dependentRequired':
    case 'dependencies':
      return `is required when ${String(params['property'])} is present`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not an allowed property';
    case 'propertyNames':
      return 'is not an allowed property name';
    case 'enum':
      return `must be one of ${JSON.stringify(error.schema)}, got ${showFound(data)}`;
    case 'const':
      return `must be ${JSON.stringify(error.schema)}, got ${showFound(data)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const comparison = COMPARISONS[String(params['comparison'])];
      return `must be ${comparison} ${String(params['limit'])}, got ${String(data)}`;
    }
    case 'multipleOf':
      return `must be a multiple of ${String(params['multipleOf'])}, got ${String(data)}`;
    case 'format':
      return `must be a valid ${String(params['format'])}, got ${showFound(data)}`;
    case 'pattern':
      return `must match pattern /${String(params['pattern'])}/, got ${showFound(data)}`;
    case 'uniqueItems': {
      const [first, second] = [String(params['j']), String(params['i'])];
      return `must not contain duplicates, but items [${first}] and [${second}] are equal`;
    }
    case 'anyOf':
    case 'oneOf':
      return describeUnion(error, params['passingSchemas'], data);
    case 'not':
      return describeNot(error.schema);
    case 'contains':
      return describeContains(params, error.schema);
    case 'false schema':
      return 'is not allowed';
    default:
      return String(error.message);
  }
}

const COMPARISONS: Readonly<Record<string, string>> = { '>=': '≥', '<=': '≤', '>': '>', '<': '<' };

/**
 * Size bounds: strings in characters (code points, as Ajv counts), arrays in items, objects in
 * properties. */
const LIMITS: Readonly<Record<string, { readonly bound: string; readonly unit: string }>> = {
  minLength: { bound: 'at least', unit: 'characters' },
  maxLength: { bound: 'at most', unit: 'characters' },
  minItems: { bound: 'at least', unit: 'items' },
  maxItems: { bound: 'at most', unit: 'items' },
  // `items: false` after `prefixItems` (2020-12) or `additionalItems: false` (draft-07): a tuple's length.
  items: { bound: 'at most', unit: 'items' },
  additionalItems: { bound: 'at most', unit: 'items' },
  unevaluatedItems: { bound: 'at most', unit: 'items' },
  minProperties: { bound: 'at least', unit: 'properties' },
  maxProperties: { bound: 'at most', unit: 'properties' },
};

function sizeOf(data: unknown): number {
  if (typeof data === 'string') return [...data].length;
  if (Array.isArray(data)) return data.length;
  return Object.keys(data as object).length;
}

function describeUnion(error: ErrorObject, passing: unknown, data: unknown): string {
  const options = (error.schema as readonly unknown[]).map(describeSchema).join(' | ');
  if (Array.isArray(passing)) return `must match exactly one of ${options}, but matches ${passing.length}`;
  return `expected one of ${options}, got ${jsonTypeOf(data)}`;
}

function describeNot(schema: unknown): string {
  const described = describeSchema(schema);
  return described === 'schema' ? 'must not match the schema under "not"' : `must not be ${described}`;
}

function describeContains(params: Record<string, unknown>, schema: unknown): string {
  const min = `at least ${String(params['minContains'])}`;
  const max = params['maxContains'] === undefined ? '' : ` and at most ${String(params['maxContains'])}`;
  return `must contain ${min}${max} item(s) matching ${describeSchema(schema)}`;
}

/** A subschema in a few words: its type(s), its allowed values, or the definition it refers to. */
function describeSchema(schema: unknown): string {
  if (typeof schema === 'boolean') return schema ? 'anything' : 'nothing';
  const object = schema as JsonSchema;
  if (object.type !== undefined) return alternatives(object.type);
  if (object.enum) return JSON.stringify(object.enum);
  if ('const' in object) return JSON.stringify(object.const);
  if (typeof object.$ref === 'string') return definitionName(object.$ref);
  return 'schema';
}

function definitionName(ref: string): string {
  const name = ref.slice(ref.lastIndexOf('/') + 1);
  return name === '' || name.startsWith('#') ? 'schema' : name;
}

function alternatives(type: unknown): string {
  return Array.isArray(type) ? type.join(' | ') : String(type);
}

/** The offending value, shortened: a model's whole answer has no place in a one-line diff. */
function showFound(data: unknown): string {
  const text = String(JSON.stringify(data));
  return text.length > MAX_FOUND_LENGTH ? `${text.slice(0, MAX_FOUND_LENGTH - 1)}…` : text;
}

const MAX_FOUND_LENGTH = 80;

/**
 * Ajv reports a failed `anyOf`/`oneOf`/`contains`/`propertyNames` right after the errors of its
 * subschemas; those are dropped so the one summary line stands for them ("expected one of string | null,
 * got integer"). Ajv does not mark which errors came from the subschemas, so they are recognised: at or
 * below the summary's place in the value, and under its schema path. For `anyOf`/`oneOf` also strictly
 * below the summary's place (a recursive `$ref` reports relative to its definition), or at that place
 * but under a `$defs`/`definitions` entry (where an inlined `$ref` reports) from another schema object.
 * Ajv checks a schema's `properties`/`items` after its unions, so only a sibling `$ref` or an earlier
 * `allOf` member reaching the same place can be folded in by mistake; the value is still reported
 * invalid. `if` is dropped: the failing `then`/`else` errors say what is wrong.
 */
function withoutBranchErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    if (SUMMARY_KEYWORDS.has(error.keyword)) {
      for (let last = kept.at(-1); last && isBranchError(last, error); last = kept.at(-1)) kept.pop();
    }
    kept.push(error);
  }
  return kept;
}

const SUMMARY_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'contains', 'propertyNames']);
const DEFINITIONS_PATH = /\/(?:\$defs|definitions)\//;

function isBranchError(candidate: ErrorObject, summary: ErrorObject): boolean {
  const base = summary.instancePath;
  const within = candidate.instancePath === base || candidate.instancePath.startsWith(`${base}/`);
  if (!within) return false;
  if (candidate.schemaPath.startsWith(`${summary.schemaPath}/`)) return true;
  if (summary.keyword !== 'anyOf' && summary.keyword !== 'oneOf') return false;
  if (candidate.instancePath !== base) return true;
  return candidate.parentSchema !== summary.parentSchema && DEFINITIONS_PATH.test(candidate.schemaPath);
}

/** A wrong type says it all for its schema: `expected string, got integer`, not also `must be one of`. */
/**
 * zod emits both `format: email` and the regex behind it; when both fail, "must be a valid email" says it
 * and the regex would only repeat it less readably.
 */
function withoutPatternBesideFormat(errors: readonly ErrorObject[]): ErrorObject[] {
  const formatErrors = errors.filter((error) => error.keyword === 'format');
  return errors.filter(
    (error) =>
      error.keyword !== 'pattern' ||
      !formatErrors.some(
        (format) => format.instancePath === error.instancePath && format.parentSchema === error.parentSchema,
      ),
  );
}

function withoutShadowedByType(errors: readonly ErrorObject[]): ErrorObject[] {
  const typeErrors = errors.filter((error) => error.keyword === 'type');
  return errors.filter(
    (error) =>
      error.keyword === 'type' ||
      !typeErrors.some(
        (type) => type.instancePath === error.instancePath && type.parentSchema === error.parentSchema,
      ),
  );
}

function locate(error: ErrorObject, value: unknown): Located {
  const steps: Step[] = [];
  let container = value;
  const add = (segment: Segment): void => {
    steps.push({ segment, rank: rankOf(container, segment) });
    container = (container as Record<Segment, unknown>)[segment];
  };
  for (const pointer of error.instancePath.split('/').slice(1)) {
    const key = pointer.replaceAll('~1', '/').replaceAll('~0', '~');
    add(Array.isArray(container) ? Number(key) : key);
  }
  const property = propertyOf(error);
  if (property !== undefined) add(property);
  const keywordRank = KEYWORD_ORDER.indexOf(error.keyword);
  return {
    steps,
    keywordRank: keywordRank < 0 ? KEYWORD_ORDER.length : keywordRank,
    message: describeAjvError(error),
  };
}

/** The property a missing/unexpected-property error is about; Ajv reports it at the enclosing object. */
function propertyOf(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  const property =
    params['missingProperty'] ??
    params['additionalProperty'] ??
    params['unevaluatedProperty'] ??
    params['propertyName'];
  return typeof property === 'string' ? property : undefined;
}

function rankOf(container: unknown, segment: Segment): number {
  if (typeof segment === 'number') return segment;
  const record = container as Record<string, unknown>;
  const position = Object.keys(record).indexOf(segment);
  return position >= 0 && record[segment] !== undefined ? position + 1 : 0;
}

/** Errors about one value, in this order (the order Helios always listed them in); others after. */
const KEYWORD_ORDER: readonly string[] = [
  'anyOf',
  'oneOf',
  'type',
  'enum',
  'const',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'items',
  'additionalItems',
  'unevaluatedItems',
  'uniqueItems',
  'contains',
  'minProperties',
  'maxProperties',
  'not',
];

/** Parent before child, fields in the value's order; ties keep Ajv's order (sort is stable). */
function compareLocated(a: Located, b: Located): number {
  for (const [index, step] of a.steps.entries()) {
    const other = b.steps[index];
    if (!other) break;
    if (step.segment !== other.segment) return step.rank - other.rank;
  }
  return a.steps.length - b.steps.length || a.keywordRank - b.keywordRank;
}

function joinPath(prefix: string, steps: readonly Step[]): string {
  let path = prefix;
  for (const { segment } of steps) {
    if (typeof segment === 'number') path = `${path}[${segment}]`;
    else path = path === '' ? segment : `${path}.${segment}`;
  }
  return path;
}
