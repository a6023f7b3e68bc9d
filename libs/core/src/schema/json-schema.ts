/** The subset of JSON Schema Helios generates, validates and sends to providers; other keywords pass through. */
export type JsonSchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  readonly type?: JsonSchemaType | readonly JsonSchemaType[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly [keyword: string]: unknown;
}

/** One field that does not match its schema: where, and what was expected versus found. */
export interface FieldError {
  /** `a.b[0]` style; empty for the value itself. */
  readonly path: string;
  readonly message: string;
}

/** `field 'a.b' expected integer, got string` — the line a correction message lists. */
export function describeFieldError(error: FieldError): string {
  return `field '${error.path === '' ? '$' : error.path}' ${error.message}`;
}
