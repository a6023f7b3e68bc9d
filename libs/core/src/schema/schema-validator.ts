/**
 * Checks a parsed JSON value against a JsonSchema with Ajv (every standard keyword: `$ref`/`$defs`,
 * `pattern`, `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`, `patternProperties`, `uniqueItems`,
 * `multipleOf`, …) and lists every mismatch by field path. Each schema object is compiled once and the
 * validator is cached on it; a schema Ajv cannot compile is an InvalidArgumentError.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { InvalidArgumentError } from '../common/helios-error.js';
import { ajvFieldErrors, describeAjvError } from './ajv-field-errors.js';
import { type FieldError, type JsonSchema } from './json-schema.js';

export { jsonTypeOf } from './json-schema.js';

/** A compiled schema: checks a value and returns its field errors, paths under `path` (none when valid). */
export type JsonValidator = (value: unknown, path?: string) => FieldError[];

/**
 * `allErrors` so a correction lists every mismatch; `verbose` so each error carries the offending value
 * and the keyword's schema, which the messages quote ("expected integer, got string").
 *
 * Strictness: `strict: false` turns off Ajv's strict-mode refusals, which reject schemas that are valid
 * JSON Schema: unknown keywords are annotations to JSON Schema (providers and zod emit them: zod's
 * `.meta({'x-…'})`, OpenAPI's `nullable`, Gemini's `propertyOrdering`), and `strictTypes`/`strictTuples`
 * only warn about style (`properties` without `type: object`, `prefixItems` without `minItems`) on the
 * console. Typos in keyword names are therefore ignored, as the JSON Schema specification says; a
 * malformed value of a known keyword (`type: 'strin'`, `minimum: 'x'`, a bad `pattern`, an unresolvable
 * `$ref`) is still refused because every schema is checked against its meta-schema. `strictNumbers` stays
 * on: NaN and Infinity are not JSON numbers.
 *
 * `format` is checked with the definitions of `ajv-formats` (email, uri, uuid, date-time, …; Ajv 8 ships
 * none of its own); an unknown format name is ignored, as the specification allows.
 *
 * `ownProperties` so inherited properties never count; no `coerceTypes`/`useDefaults`/`removeAdditional`,
 * so validation never changes the value.
 */
const AJV_OPTIONS: Options = {
  allErrors: true,
  verbose: true,
  strict: false,
  strictNumbers: true,
  ownProperties: true,
};

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema';

type SchemaAjv = Ajv | Ajv2020;

// ajv-formats is CommonJS: under Node's ESM interop its plugin is the module itself or its `default`.
const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: SchemaAjv,
) => void;

/** One instance per dialect, built on first use: schemas without `$schema` are read as 2020-12 (zod's). */
const instances = new Map<string, SchemaAjv>();

function ajvFor(schema: JsonSchema): SchemaAjv {
  const declared = schema.$schema;
  if (declared !== undefined && typeof declared !== 'string') {
    throw new InvalidArgumentError('invalid JSON Schema: $schema must be a string');
  }
  const dialect = normalizeDialect(declared ?? DRAFT_2020_12);
  if (dialect !== DRAFT_2020_12 && dialect !== DRAFT_07) {
    throw new InvalidArgumentError(
      `invalid JSON Schema: unsupported $schema "${declared}" (supported: ${DRAFT_2020_12}, ${DRAFT_07})`,
    );
  }
  let ajv = instances.get(dialect);
  if (!ajv) {
    ajv = dialect === DRAFT_07 ? new Ajv(AJV_OPTIONS) : new Ajv2020(AJV_OPTIONS);
    addFormats(ajv);
    instances.set(dialect, ajv);
  }
  return ajv;
}

function normalizeDialect(uri: string): string {
  return uri.endsWith('#') ? uri.slice(0, -1) : uri;
}

const compiled = new WeakMap<JsonSchema, JsonValidator>();

/**
 * The validator of `schema`, compiled on the first call for this schema object and cached on it (the
 * schema must not be mutated afterwards). Throws InvalidArgumentError naming what is wrong when `schema`
 * is not a valid JSON Schema.
 */
export function compileJsonSchema(schema: JsonSchema): JsonValidator {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const validate = compileWithAjv(schema);
  const validator: JsonValidator = (value, path = '') =>
    validate(value) ? [] : ajvFieldErrors(validate.errors ?? [], value, path);
  compiled.set(schema, validator);
  return validator;
}

function compileWithAjv(schema: JsonSchema): ValidateFunction {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidArgumentError('invalid JSON Schema: expected an object');
  }
  const ajv = ajvFor(schema);
  let validate: ValidateFunction;
  try {
    if (!ajv.validateSchema(schema)) throw new Error(describeSchemaErrors(ajv.errors ?? []));
    validate = ajv.compile(schema);
  } catch (error) {
    throw new InvalidArgumentError(`invalid JSON Schema: ${(error as Error).message}`, { cause: error });
  } finally {
    // The WeakMap above is the cache. Ajv's own would keep every schema alive, and would refuse a second
    // schema with the same `$id`; the compiled function does not need it.
    ajv.removeSchema(schema);
  }
  if ('$async' in validate) {
    throw new InvalidArgumentError('invalid JSON Schema: asynchronous schemas ($async) are not supported');
  }
  return validate;
}

/** Meta-schema errors, the first per place in the schema: `'type' must be one of [...], got "strin"`. */
function describeSchemaErrors(errors: readonly ErrorObject[]): string {
  const byPlace = new Map<string, string>();
  for (const error of errors) {
    const place = error.instancePath.slice(1).replaceAll('/', '.');
    if (!byPlace.has(place)) byPlace.set(place, `'${place}' ${describeAjvError(error)}`);
  }
  return [...byPlace.values()].join('; ');
}

/** Every mismatch of `value` against `schema`, by field path (`a.b[0]`), under `path` when given. */
export function validateJson(value: unknown, schema: JsonSchema, path = ''): FieldError[] {
  return compileJsonSchema(schema)(value, path);
}
