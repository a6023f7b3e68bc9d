import { z } from 'zod';
import { agentsSchema } from './agents.schema.js';
import { authSchema } from './auth.schema.js';
import { sandboxSchema } from './sandbox.schema.js';
import { sessionsSchema } from './sessions.schema.js';

const port = z.number().int().min(0).max(65535);
const positiveInt = z.number().int().positive();
const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * What one HTTP listener lets a client hold: without these, connections that send headers and a byte of
 * body, then nothing, pile up until the process runs out of file descriptors.
 */
const connectionLimitFields = {
  /** Until the request's headers are complete (408 and the connection closed after it). */
  headersTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
  /** Until the whole request, body included, is received (408 and closed after it). */
  requestTimeoutMs: z.number().int().min(100).max(3_600_000).default(30_000),
  /** How long a kept-alive connection may sit idle between requests. */
  keepAliveTimeoutMs: z.number().int().min(100).max(600_000).default(5_000),
  /** Open connections at once; a connection beyond it is closed as soon as it is accepted. */
  maxConnections: z.number().int().min(1).max(1_000_000).default(1_024),
};

const connectionLimits = z.strictObject(connectionLimitFields);
/** The connection limits of one listener. */
export type ConnectionLimits = z.infer<typeof connectionLimits>;
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = connectionLimits.parse({});

/** Node refuses a headers timeout longer than the request timeout; say so at start instead. */
const headersWithinRequest = {
  check: (limits: { headersTimeoutMs: number; requestTimeoutMs: number }) =>
    limits.headersTimeoutMs <= limits.requestTimeoutMs,
  message: { message: 'must not exceed requestTimeoutMs', path: ['headersTimeoutMs'] },
};

/** PostgreSQL connection URL; parsed here so a typo fails at start, not at the first query. */
const databaseUrl = z.string().refine(isPostgresUrl, {
  message: 'not a valid PostgreSQL URL (expected postgres://user:password@host:port/database)',
});

/**
 * The whole `helios.yaml` schema. Objects are strict: an unknown key is an error, not silently ignored,
 * so a misspelt setting never falls back to a default unnoticed. Later features add their sections here.
 */
export const configSchema = z
  .strictObject({
    server: z
      .strictObject({
        host: z.string().min(1).default('127.0.0.1'),
        port: port.default(8080),
        /** How long in-flight requests may run after SIGTERM/SIGINT before connections are cut. */
        shutdownGraceMs: z.number().int().min(0).max(600_000).default(10_000),
        bodyLimitBytes: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1024 * 1024),
        ...connectionLimitFields,
      })
      .refine(headersWithinRequest.check, headersWithinRequest.message)
      .prefault({}),
    database: z
      .strictObject({
        /** External PostgreSQL. Absent: an embedded PostgreSQL runs with its data in `dataDir`. */
        url: databaseUrl.optional(),
        dataDir: z.string().min(1).default('.helios'),
        poolSize: z.number().int().min(1).max(200).default(10),
        connectTimeoutMs: z.number().int().min(100).max(120_000).default(10_000),
      })
      .prefault({}),
    log: z.strictObject({ level: logLevel.default('info') }).prefault({}),
    dashboard: z.strictObject({ port: port.default(3000) }).prefault({}),
    governance: z
      .strictObject({
        /**
         * Path of a policy document in the reference's helio.yaml format (HELIO_POLICY wins). Absent: no
         * governance; with `sdk.enabled: true` in it, the adapter API listens on `sdk.host:sdk.port`.
         */
        policy: z.string().min(1).optional(),
        /** How often unaudited evaluations past their TTL are expired into audit records. */
        sweepIntervalMs: z.number().int().min(100).max(3_600_000).default(5_000),
        /**
         * Bounded-growth caps of the adapter API; unset ones keep the seed's defaults (32 origins, 1,024
         * tools per origin, 64 KiB per kept tool definition and 4 MiB per origin, 64 KiB tool_input, 4 KiB metadata, 10,000 / 64 MiB pending evaluations, 50,000
         * sender keys, 16 evidence entries of 64 KiB, 10,000 sessions / 64 MiB in the session store).
         */
        limits: z
          .strictObject({
            maxOrigins: positiveInt.optional(),
            maxToolsPerOrigin: positiveInt.optional(),
            maxToolDefinitionBytes: positiveInt.optional(),
            maxToolDefinitionBytesPerOrigin: positiveInt.optional(),
            maxToolInputBytes: positiveInt.optional(),
            maxMetadataBytes: positiveInt.optional(),
            maxPendingEvaluations: positiveInt.optional(),
            maxPendingBytes: positiveInt.optional(),
            maxSenderKeys: positiveInt.optional(),
            maxEvidenceEntries: positiveInt.optional(),
            maxEvidenceBytes: positiveInt.optional(),
            maxSessions: positiveInt.optional(),
            maxSessionBytes: positiveInt.optional(),
            sessionIdleTtlMs: positiveInt.optional(),
          })
          .prefault({}),
        /** Connection limits of the adapter API listener (`sdk.host:sdk.port`), as for `server`. */
        adapterApi: connectionLimits
          .refine(headersWithinRequest.check, headersWithinRequest.message)
          .prefault({}),
      })
      .prefault({}),
    /** Authenticators of the runtime API; absent: one local principal, on a loopback bind only. */
    auth: authSchema.optional(),
    /** Agents `POST /v1/sessions` may name; absent: the built-in scripted `demo` agent. */
    agents: agentsSchema.optional(),
    /** Admission limits, retention and event replay of the runtime API. */
    sessions: sessionsSchema,
    /** The execution providers behind agents' `execution:` (the Execute tool). */
    sandbox: sandboxSchema,
  })
  // Fastify cuts every body at server.bodyLimitBytes first; a larger runtime limit would never apply.
  .refine((config) => config.sessions.maxRequestBytes <= config.server.bodyLimitBytes, {
    message: 'must not exceed server.bodyLimitBytes',
    path: ['sessions', 'maxRequestBytes'],
  })
  // The local process provider is no sandbox: an agent gets it only where the deployer opted in.
  .superRefine((config, ctx) => {
    for (const [name, agent] of Object.entries(config.agents ?? {})) {
      if (agent.execution === 'bash' && !config.sandbox.bash.enabled) {
        ctx.addIssue({
          code: 'custom',
          path: ['agents', name, 'execution'],
          message: 'bash runs scripts with no sandbox: set sandbox.bash.enabled: true to allow it',
        });
      }
    }
  });

export type HeliosConfig = z.infer<typeof configSchema>;

function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}
