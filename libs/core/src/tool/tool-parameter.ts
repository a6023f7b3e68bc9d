/** Declared tool parameters and the JSON Schema they stand for. */
import { requireNonBlank } from '../common/validate.js';
import { type JsonSchema } from '../schema/json-schema.js';

export const ParameterType = {
  STRING: 'string',
  INTEGER: 'integer',
  NUMBER: 'number',
  BOOLEAN: 'boolean',
  ARRAY: 'array',
  OBJECT: 'object',
} as const;
export type ParameterType = (typeof ParameterType)[keyof typeof ParameterType];

export interface ToolParameter {
  readonly name: string;
  readonly type: ParameterType;
  readonly description?: string;
  readonly required?: boolean;
  readonly default?: unknown;
  /** Element type of an ARRAY parameter (name ignored); default: any object. */
  readonly items?: ToolParameter;
}

function parameterSchema(parameter: ToolParameter): JsonSchema {
  const schema: Record<string, unknown> = { type: parameter.type };
  if (parameter.description !== undefined) schema['description'] = parameter.description;
  if (parameter.default !== undefined) schema['default'] = parameter.default;
  if (parameter.type === 'array')
    schema['items'] = parameter.items ? parameterSchema(parameter.items) : { type: 'object' };
  return schema as JsonSchema;
}

/** `{type: object, properties: {...}, required: [...]}` for a parameter list. */
export function parametersJsonSchema(parameters: readonly ToolParameter[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    properties[requireNonBlank(parameter.name, 'parameter name')] = parameterSchema(parameter);
    if (parameter.required === true) required.push(parameter.name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}
