/**
 * Judges each provenance entry. The default rejects MEDIUM or HIGH confidence without a single source,
 * so a model cannot rubber-stamp HIGH on every field.
 */
import { requirePositiveInteger } from '../common/validate.js';
import { type FieldProvenance } from './provenance.js';

export type ValidationResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

export const ValidationResult = {
  ok: (): ValidationResult => OK,
  fail: (message: string): ValidationResult => Object.freeze({ ok: false, message }),
} as const;

const OK: ValidationResult = Object.freeze({ ok: true });

export type ProvenanceValidator = (entry: FieldProvenance) => ValidationResult;

const requireSourcesAboveLow: ProvenanceValidator = (entry) =>
  entry.confidence !== 'LOW' && entry.sources.length === 0
    ? ValidationResult.fail(
        `field '${entry.field}': confidence=${entry.confidence} requires at least one source`,
      )
    : OK;

export const DEFAULT_EXCERPT_MAX_CHARS = 2000;

export const ProvenanceValidator = {
  DEFAULT: requireSourcesAboveLow,
  /** Accepts every entry. */
  NONE: ((): ValidationResult => OK) as ProvenanceValidator,
  /** Rejects excerpts longer than `maxChars`, which are copies rather than citations. */
  excerptLengthCap(maxChars: number = DEFAULT_EXCERPT_MAX_CHARS): ProvenanceValidator {
    requirePositiveInteger(maxChars, 'maxChars');
    return (entry) => {
      for (const src of entry.sources) {
        const long = src.excerpts.find((excerpt) => excerpt.length > maxChars);
        if (long !== undefined) {
          return ValidationResult.fail(
            `field '${entry.field}': excerpt from ${src.url} has ${long.length} characters; at most ${maxChars} allowed`,
          );
        }
      }
      return OK;
    };
  },
  /** Runs validators in order and stops at the first failure. */
  all(...validators: readonly ProvenanceValidator[]): ProvenanceValidator {
    return (entry) => {
      for (const validator of validators) {
        const result = validator(entry);
        if (!result.ok) return result;
      }
      return OK;
    };
  },
} as const;
