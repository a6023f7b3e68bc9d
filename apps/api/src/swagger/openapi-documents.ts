import { parseConfig } from '../config/load-config.js';
import { adapterOpenApiDocument } from '../governance/adapter-listener/adapter-openapi.js';
import { createApp } from '../server.js';
import { mainOpenApiDocument } from './swagger.js';

/** Where the committed documents live (REST clients read them; the dashboard's types come from one). */
export const OPENAPI_FILES = { main: 'openapi.json', adapter: 'adapter-openapi.json' } as const;

export interface OpenApiDocuments {
  readonly main: unknown;
  readonly adapter: unknown;
}

/**
 * Both OpenAPI documents, built from a Nest app that is created but never initialised: no database is
 * opened and nothing listens, so this runs anywhere the code builds.
 */
export async function buildOpenApiDocuments(): Promise<OpenApiDocuments> {
  const app = await createApp(parseConfig('log:\n  level: error\n'), {});
  try {
    return { main: mainOpenApiDocument(app), adapter: adapterOpenApiDocument() };
  } finally {
    await app.close();
  }
}

/** The JSON text written for a document: stable key order from the builders, two-space indent. */
export function documentText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
