/**
 * The host's check of a snippet's host-function arguments, which arrive as JSON from an untrusted
 * child: a plain object holding only declared parameter names, every required one present, each value
 * of its declared type. What passes is copied into a fresh null-prototype object, declared names only,
 * so nothing the snippet chose is ever merged into a live object.
 */
import { type HostArguments, type HostFunction, type HostParameterType } from './host-function.js';

export type ArgumentCheck =
  { readonly ok: true; readonly args: HostArguments } | { readonly ok: false; readonly error: string };

export function checkArguments(fn: HostFunction, raw: unknown): ArgumentCheck {
  if (!isPlainObject(raw)) return { ok: false, error: `${fn.name}: arguments must be an object` };
  const declared = new Map(fn.parameters.map((p) => [p.name, p]));
  for (const key of Object.keys(raw)) {
    if (!declared.has(key)) return { ok: false, error: `${fn.name}: unknown parameter '${key}'` };
  }
  const args = Object.create(null) as Record<string, unknown>;
  for (const parameter of fn.parameters) {
    const present = Object.hasOwn(raw, parameter.name);
    if (!present) {
      if (parameter.required)
        return { ok: false, error: `${fn.name}: missing required parameter '${parameter.name}'` };
      continue;
    }
    const value = raw[parameter.name];
    if (!hasType(value, parameter.type)) {
      return {
        ok: false,
        error: `${fn.name}: parameter '${parameter.name}' must be ${article(parameter.type)}`,
      };
    }
    args[parameter.name] = value;
  }
  return { ok: true, args: Object.freeze(args) };
}

function hasType(value: unknown, type: HostParameterType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function article(type: HostParameterType): string {
  return type === 'integer' || type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`;
}
