import { z } from 'zod';

const port = z.number().int().min(0).max(65535);
const positiveInt = z.number().int().positive();
const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** PostgreSQL connection URL; parsed here so a typo fails at start, not at the first query. */
const databaseUrl = z.string().refine(isPostgresUrl, {
  message: 'not a valid PostgreSQL URL (expected postgres://user:password@host:port/database)',
});

/**
 * The whole `helios.yaml` schema. Objects are strict: an unknown key is an error, not silently ignored,
 * so a misspelt setting never falls back to a default unnoticed. Later features add their sections here.
 */
export const configSchema = z.strictObject({
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
    })
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
       * tools per origin, 64 KiB tool_input, 4 KiB metadata, 10,000 / 64 MiB pending evaluations, 50,000
       * sender keys, 16 evidence entries of 64 KiB, 10,000 sessions / 64 MiB in the session store).
       */
      limits: z
        .strictObject({
          maxOrigins: positiveInt.optional(),
          maxToolsPerOrigin: positiveInt.optional(),
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
    })
    .prefault({}),
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
