/**
 * Prompt templates: `{{name}}` placeholders (spaces inside the braces allowed, names are identifiers).
 * Rendering is one pass, so a value that itself contains `{{x}}` is inserted as it is, never expanded.
 */
import { PromptVariableMissingError } from './errors.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export type PromptVariables = Readonly<Record<string, string | number | boolean>>;

/** The distinct variables of a template, in order of first use. */
export function templateVariables(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(PLACEHOLDER), (found) => found[1] ?? ''))];
}

/**
 * The template with every placeholder replaced by its value. Throws {@link PromptVariableMissingError}
 * (code PROMPT_VARIABLE_MISSING) naming every variable without a value; extra values are ignored.
 */
export function renderTemplate(promptName: string, template: string, variables: PromptVariables): string {
  const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(variables, name);
  const missing = templateVariables(template).filter((name) => !has(name));
  if (missing.length > 0) throw new PromptVariableMissingError(promptName, missing);
  return template.replace(PLACEHOLDER, (_match, name: string) => String(variables[name]));
}
