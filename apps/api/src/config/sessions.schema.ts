import { z } from 'zod';

const count = (max: number) => z.number().int().min(1).max(max);

/**
 * `sessions:` — the runtime API's admission limits and housekeeping (the reference's defaults). Every
 * refusal is answered at once with a fixed body; see apps/api/README.md.
 */
export const sessionsSchema = z
  .strictObject({
    /** A request body is at most this (413, a declared larger one refused unread). */
    maxRequestBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(256 * 1024),
    /** Requests one principal has in flight, open event streams and waiting polls included (429). */
    maxConcurrentRequestsPerPrincipal: count(100_000).default(32),
    /** Runtime requests in flight on this server, all principals (503). */
    maxConcurrentRequests: count(1_000_000).default(512),
    /** Sessions one principal holds, finished ones included (429; its oldest finished one is evicted first). */
    maxSessionsPerPrincipal: count(100_000).default(16),
    /** Sessions the registry holds, finished ones included (503). */
    maxSessions: count(1_000_000).default(256),
    /** A session not running (never started or finished) this long is closed. */
    retentionMs: z
      .number()
      .int()
      .min(1_000)
      .max(30 * 24 * 3_600_000)
      .default(15 * 60_000),
    /** How often the retention sweep runs. */
    sweepIntervalMs: z.number().int().min(100).max(3_600_000).default(30_000),
    /** A comment line on an idle event stream, so proxies and clients see it is alive. */
    heartbeatMs: z.number().int().min(100).max(300_000).default(15_000),
    /** Events per session kept for `Last-Event-ID` replay; older ones become one gap event. */
    retainedEvents: z.number().int().min(16).max(1_000_000).default(1_024),
    /** …and at most this many bytes of them besides the newest, which is always kept. */
    retainedEventBytes: z
      .number()
      .int()
      .min(64 * 1024)
      .max(1024 * 1024 * 1024)
      .default(8 * 1024 * 1024),
  })
  .prefault({});

export type SessionsConfig = z.infer<typeof sessionsSchema>;
