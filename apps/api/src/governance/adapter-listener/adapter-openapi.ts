import { REQUEST_SCHEMAS } from '../request-schemas.js';
import { ADAPTER_ROUTES, type AdapterRoute, type RouteSpec } from './adapter-routes.js';
import { VERSION } from '../../version.js';

/** OpenAPI 3.1 (its schemas are JSON Schema 2020-12, so the validator's schemas go in unchanged). */
type Json = Record<string, unknown>;

const ROUTE_DOCS: Readonly<Record<AdapterRoute, { summary: string; success: number; description: string }>> =
  {
    evaluate: {
      summary: 'Decide one tool call',
      success: 200,
      description: 'The decision (allow, deny, require_approval, …) and its evaluation id.',
    },
    audit: {
      summary: 'Report how an evaluated call ended',
      success: 201,
      description: 'Recorded (201); 200 when the same report was already recorded.',
    },
    'install-scan': { summary: 'Decide a package install', success: 200, description: 'The decision.' },
    'approval-resolve': {
      summary: 'Resolve a native approval ticket',
      success: 200,
      description: 'Resolved.',
    },
    evidence: { summary: "Store evidence in a session's store", success: 201, description: 'Stored.' },
    context: { summary: "Store a context value in a session's store", success: 201, description: 'Stored.' },
    'session-state': {
      summary: "Read a session's evidence and context",
      success: 200,
      description: 'The session state.',
    },
  };

const ERROR_BODY: Json = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'string',
      description:
        "The reference gateway's text: a snake_case reason code, or its prose for the few refusals it words " +
        '(e.g. "Validation error"); see docs/governance/adapter-api.md.',
    },
    code: { type: 'string', description: 'Our stable reason code, present where `error` is prose.' },
    details: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
      description: 'Every invalid field, by dotted path (400 Validation error, invalid_actual_amount).',
    },
  },
};

function errorResponse(description: string): Json {
  return {
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  };
}

function operation(spec: RouteSpec): Json {
  const doc = ROUTE_DOCS[spec.route];
  const schema = REQUEST_SCHEMAS[spec.route] as Json;
  const pathParams = [...spec.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  return {
    operationId: spec.route.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
    summary: doc.summary,
    tags: [spec.scope === 'adapter' ? 'governance' : 'sdk'],
    security: [{ [spec.scope === 'adapter' ? 'adapterToken' : 'sdkToken']: [] }],
    ...(pathParams.length > 0
      ? {
          parameters: pathParams.map((name) => ({
            name,
            in: 'path',
            required: true,
            schema: spec.method === 'GET' ? (properties[name] ?? { type: 'string' }) : { type: 'string' },
          })),
        }
      : {}),
    ...(spec.method === 'POST'
      ? { requestBody: { required: true, content: { 'application/json': { schema } } } }
      : {}),
    responses: {
      [doc.success]: {
        description: doc.description,
        content: { 'application/json': { schema: { type: 'object' } } },
      },
      400: errorResponse('Invalid request (`invalid_request` lists every issue) or a refused value.'),
      401: errorResponse("Missing or wrong bearer token for the route's scope; the connection is closed."),
      403: errorResponse('A browser request (Origin header or OPTIONS); the connection is closed.'),
      413: errorResponse('Body, tool input, metadata or evidence over its cap.'),
      503: errorResponse(
        'Over capacity, shutting down, or the store is unavailable: governance fails closed.',
      ),
    },
  };
}

/**
 * The adapter API's OpenAPI document, generated from the same route table and JSON Schemas the listener
 * validates with, so the document cannot drift from what is enforced.
 */
export function adapterOpenApiDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const spec of ADAPTER_ROUTES) {
    const path = spec.url.replace(/:([a-z_]+)/g, '{$1}');
    (paths[path] ??= {})[spec.method.toLowerCase()] = operation(spec);
  }
  paths['/healthz'] = {
    get: {
      operationId: 'healthz',
      summary: 'Liveness (no token)',
      tags: ['health'],
      responses: { 200: { description: 'Alive.' } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Helios governance adapter API',
      version: VERSION,
      description:
        "The tool-call policy decision point on its own listener (`sdk.host:sdk.port` of the policy), wire-compatible with the original's adapters and SDK.",
    },
    paths,
    components: {
      schemas: { ErrorBody: ERROR_BODY },
      securitySchemes: {
        adapterToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'HELIO_ADAPTER_TOKEN: governance routes.',
        },
        sdkToken: { type: 'http', scheme: 'bearer', description: 'HELIO_SDK_TOKEN: session (SDK) routes.' },
      },
    },
  };
}
