import { describe, expect, it } from 'vitest';
import { fieldProvenance, parseConfidence, provenanceFor, source } from './provenance.js';
import { ProvenanceValidator, ValidationResult } from './provenance-validator.js';

describe('provenance values', () => {
  it('reads confidence case-insensitively and refuses unknown levels', () => {
    expect(parseConfidence(' high ')).toBe('HIGH');
    expect(parseConfidence('Medium')).toBe('MEDIUM');
    expect(parseConfidence('low')).toBe('LOW');
    expect(() => parseConfidence('certain')).toThrow(/LOW, MEDIUM or HIGH/);
  });

  it('builds sources and entries and finds entries by field', () => {
    const s = source('doc:handbook#3', { title: 'Handbook', excerpts: ['x'] });
    expect(source('https://a')).toEqual({ url: 'https://a', excerpts: [] });
    const entry = fieldProvenance({
      field: 'city',
      confidence: 'HIGH',
      reasoning: 'stated on page 3',
      sources: [s],
    });
    const other = fieldProvenance({ field: 'country', confidence: 'LOW', reasoning: 'guess' });
    expect(provenanceFor({ output: {}, provenance: [entry, other] }, 'city')).toEqual([entry]);
    expect(() => fieldProvenance({ field: ' ', confidence: 'LOW', reasoning: 'r' })).toThrow(/field/);
    expect(() => fieldProvenance({ field: 'f', confidence: 'LOW', reasoning: '' })).toThrow(/reasoning/);
    expect(() => source('')).toThrow(/url/);
  });
});

describe('ProvenanceValidator', () => {
  const withSource = fieldProvenance({
    field: 'f',
    confidence: 'HIGH',
    reasoning: 'r',
    sources: [source('https://a', { excerpts: ['abcdef'] })],
  });

  it('DEFAULT: LOW may have no source; MEDIUM and HIGH need one', () => {
    expect(
      ProvenanceValidator.DEFAULT(fieldProvenance({ field: 'f', confidence: 'LOW', reasoning: 'r' })),
    ).toEqual({ ok: true });
    expect(
      ProvenanceValidator.DEFAULT(fieldProvenance({ field: 'f', confidence: 'MEDIUM', reasoning: 'r' })),
    ).toEqual({
      ok: false,
      message: "field 'f': confidence=MEDIUM requires at least one source",
    });
    expect(
      ProvenanceValidator.DEFAULT(fieldProvenance({ field: 'f', confidence: 'HIGH', reasoning: 'r' })).ok,
    ).toBe(false);
    expect(ProvenanceValidator.DEFAULT(withSource).ok).toBe(true);
  });

  it('caps excerpt length at the edge', () => {
    expect(ProvenanceValidator.excerptLengthCap(6)(withSource).ok).toBe(true);
    expect(ProvenanceValidator.excerptLengthCap(5)(withSource)).toEqual({
      ok: false,
      message: "field 'f': excerpt from https://a has 6 characters; at most 5 allowed",
    });
    expect(ProvenanceValidator.excerptLengthCap()(withSource).ok).toBe(true);
    expect(() => ProvenanceValidator.excerptLengthCap(0)).toThrow();
  });

  it('chains validators and stops at the first failure', () => {
    let calls = 0;
    const counting = () => {
      calls += 1;
      return ValidationResult.ok();
    };
    const chain = ProvenanceValidator.all(ProvenanceValidator.DEFAULT, counting);
    expect(chain(fieldProvenance({ field: 'f', confidence: 'HIGH', reasoning: 'r' })).ok).toBe(false);
    expect(calls).toBe(0);
    expect(chain(withSource).ok).toBe(true);
    expect(calls).toBe(1);
    expect(ProvenanceValidator.NONE(withSource).ok).toBe(true);
  });
});
