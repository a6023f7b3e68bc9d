import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocuments, documentText, OPENAPI_FILES } from './openapi-documents.js';

const DOCS_API = resolve(import.meta.dirname, '../../../../docs/api');

describe('the committed OpenAPI documents', () => {
  // `npm run openapi` rewrites them (vitest -u) and regenerates the dashboard's types from the main one.
  it('match what the routes, DTOs and adapter schemas generate', async () => {
    const documents = await buildOpenApiDocuments();
    for (const [name, file] of Object.entries(OPENAPI_FILES)) {
      await expect(documentText(documents[name as keyof typeof documents])).toMatchFileSnapshot(
        resolve(DOCS_API, file),
      );
    }
  });
});
