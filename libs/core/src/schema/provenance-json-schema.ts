/** The JSON Schema of one provenance entry, as sent to providers inside a provenanced output schema. */
import { type JsonSchema } from './json-schema.js';

export const FIELD_PROVENANCE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    field: { type: 'string', description: 'Path of the output field this entry is about' },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          url: { type: 'string' },
          excerpts: { type: 'array', items: { type: 'string' } },
        },
        required: ['url', 'excerpts'],
        additionalProperties: false,
      },
    },
    reasoning: { type: 'string' },
    confidence: { type: 'string', enum: ['LOW', 'MEDIUM', 'HIGH'] },
  },
  required: ['field', 'sources', 'reasoning', 'confidence'],
  additionalProperties: false,
};

/** The same shape with confidence as any string, so `high` is read case-insensitively, not refused. */
export const LENIENT_FIELD_PROVENANCE_SCHEMA: JsonSchema = {
  ...FIELD_PROVENANCE_SCHEMA,
  properties: { ...FIELD_PROVENANCE_SCHEMA.properties, confidence: { type: 'string' } },
};
