import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { REQUEST_SCHEMAS } from '../request-schemas.js';
import { adapterOpenApiDocument } from './adapter-openapi.js';
import { ADAPTER_ROUTES } from './adapter-routes.js';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: unknown }> };
        parameters?: { name: string; schema: unknown }[];
        security: unknown[];
      }
    >
  >;
};

describe('the adapter API OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = adapterOpenApiDocument();
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('documents every route with the very schema the listener validates with', () => {
    const doc = adapterOpenApiDocument() as unknown as Doc;
    for (const spec of ADAPTER_ROUTES) {
      const operation = doc.paths[spec.url.replace(/:([a-z_]+)/g, '{$1}')]?.[spec.method.toLowerCase()];
      expect(operation, spec.url).toBeDefined();
      if (spec.method === 'POST')
        expect(operation?.requestBody?.content['application/json']?.schema).toBe(REQUEST_SCHEMAS[spec.route]);
      expect(operation?.security).toEqual([{ [spec.scope === 'adapter' ? 'adapterToken' : 'sdkToken']: [] }]);
    }
    const state = doc.paths['/session/{session_id}/state']?.get;
    expect(state?.parameters?.[0]).toMatchObject({
      name: 'session_id',
      schema: (REQUEST_SCHEMAS['session-state'].properties as Record<string, unknown>).session_id,
    });
  });
});
