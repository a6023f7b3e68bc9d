/**
 * The reference's `helio.yaml` policy document as zod schemas. Every object is strict: an unknown key
 * anywhere is an error at its path (a typo'd `budgets:` once silently disabled spend enforcement).
 * Globs, regexes and durations are checked here too, so the schema stage reports all of their problems
 * together; the cross-field rules (`cross-field-rules.ts`) add theirs for every section that passed.
 */
import { z } from 'zod';
import { DURATION_PATTERN, parseDuration } from './duration.js';
import { compileGlob } from '../util/glob.js';
import { compileSafeRegex } from '../util/safe-regex.js';
import { toMicroUnits } from '../util/money.js';

export const durationSchema = z
  .string()
  .regex(DURATION_PATTERN, 'duration must be a whole number followed by s, m, h or d (e.g. "300s", "1h")')
  .superRefine((text, ctx) => {
    // zod runs this after a failed regex too; that text already has its issue.
    if (!DURATION_PATTERN.test(text)) return;
    // Well-formed, its number can still be beyond exact milliseconds. Zero is a duration, as in the
    // reference: each setting gives it the reference's meaning (compile-policy.ts, zero-durations.ts).
    if (parseDuration(text) === undefined) ctx.addIssue({ code: 'custom', message: 'duration is too large' });
  });

const globSchema = z.string().superRefine((pattern, ctx) => {
  const compiled = compileGlob(pattern);
  if (typeof compiled === 'string') ctx.addIssue({ code: 'custom', message: compiled });
});

const regexSchema = z.string().superRefine((source, ctx) => {
  const compiled = compileSafeRegex(source);
  if (typeof compiled === 'string') ctx.addIssue({ code: 'custom', message: compiled });
});

const portSchema = z.number().int().min(1).max(65535);

/** Headers the transports own on the wire; never operator-set upstream, never an identity source. */
export const RESERVED_TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'mcp-session-id',
  'mcp-protocol-version',
  'content-type',
  'content-length',
  'host',
  'mcp-method',
  'mcp-name',
]);

const upstreamSchema = z
  .object({
    url: z.string(),
    transport: z.enum(['streamable-http', 'sse', 'stdio']).default('streamable-http'),
    protocol_version: z.enum(['auto', '2025-06-18', '2026-07-28']).default('auto'),
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    connect_timeout: durationSchema.default('10s'),
    request_timeout: durationSchema.default('30s'),
    forward_headers: z.array(z.string().min(1)).default([]),
    headers: z.record(z.string(), z.string()).default({}),
  })
  .strict();

const listenSchema = z
  .object({
    port: portSchema.default(3000),
    host: z.string().default('127.0.0.1'),
    allowed_origins: z.array(z.string().min(1)).default([]),
  })
  .strict();

const dashboardSchema = z
  .object({
    enabled: z.boolean().default(true),
    port: portSchema.default(3100),
    host: z.string().default('127.0.0.1'),
    api_secret: z.string().optional(),
    allow_open_mode: z.boolean().default(false),
    sse_heartbeat_interval: durationSchema.default('30s'),
  })
  .strict();

const identitySourceSchema = z.discriminatedUnion('source', [
  z
    .object({
      source: z.literal('header'),
      name: z
        .string()
        .min(1)
        .default('x-helio-session-id')
        .transform((name) => name.toLowerCase()),
    })
    .strict(),
  z.object({ source: z.literal('meta') }).strict(),
  z.object({ source: z.literal('legacy_header') }).strict(),
]);

const sessionSchema = z
  .object({
    identity: z
      .array(identitySourceSchema)
      .min(1, 'session.identity cannot be empty: every request would be unresolved')
      .default([{ source: 'header', name: 'x-helio-session-id' }, { source: 'legacy_header' }]),
    on_unresolved: z.enum(['deny', 'anonymous']).default('deny'),
  })
  .strict();

const inputConditionSchema = z
  .object({
    eq: z.unknown().optional(),
    neq: z.unknown().optional(),
    gt: z.number().optional(),
    gte: z.number().optional(),
    lt: z.number().optional(),
    lte: z.number().optional(),
    contains: z.string().optional(),
    regex: regexSchema.optional(),
  })
  .strict()
  .refine((operators) => Object.values(operators).some((v) => v !== undefined), {
    message: 'at least one condition operator is required',
  });

const metadataConditionSchema = z.union([
  z.string(),
  z
    .object({
      eq: z.string().optional(),
      neq: z.string().optional(),
      contains: z.string().optional(),
      regex: regexSchema.optional(),
    })
    .strict()
    .refine((operators) => Object.values(operators).some((v) => v !== undefined), {
      message: 'at least one metadata condition operator is required',
    }),
]);

const annotationsMatchSchema = z
  .object({
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .strict();

const matchSchema = z
  .object({
    tool: globSchema.optional(),
    annotations: annotationsMatchSchema.optional(),
    input: z.record(z.string(), inputConditionSchema).optional(),
    environment: z.string().optional(),
    metadata: z.record(z.string(), metadataConditionSchema).optional(),
  })
  .strict();

const approvalRoutingSchema = z
  .object({
    channel: z.string().min(1),
    timeout: durationSchema.optional(),
    delegates: z.array(z.string().min(1)).optional(),
    escalation_after: durationSchema.optional(),
  })
  .strict();

const limitKeySchema = z.enum(['tool', 'agent', 'session', 'sender_id']);

const spendLimitSchema = z
  .object({
    field: z.string(),
    // Any finite size: money is counted in micro-units of unbounded width (zod refuses Infinity and NaN).
    limit: z.number().nonnegative(),
    currency: z.string(),
    window: durationSchema,
    key: limitKeySchema.optional(),
  })
  .strict();

const limitsSchema = z
  .object({
    max_calls: z.number().int().positive().optional(),
    window: durationSchema.optional(),
    key: limitKeySchema.optional(),
    max_spend: spendLimitSchema.optional(),
  })
  .strict();

const feedbackSchema = z.object({ message: z.string(), suggestion: z.string().optional() }).strict();

const ruleSchema = z
  .object({
    name: z.string().optional(),
    match: matchSchema,
    action: z.enum(['allow', 'deny', 'require_approval', 'rate_limit', 'spend_limit', 'dry_run']),
    approval: approvalRoutingSchema.optional(),
    evidence: z
      .object({ requires: z.array(z.string()) })
      .strict()
      .optional(),
    requires: z.array(z.string()).optional(),
    requires_success: z.boolean().optional(),
    limits: limitsSchema.optional(),
    feedback: feedbackSchema.optional(),
  })
  .strict();

const installRuleSchema = z
  .object({
    name: z.string().optional(),
    match: z
      .object({
        name: globSchema.optional(),
        source: z.string().optional(),
        metadata: z.record(z.string(), metadataConditionSchema).optional(),
      })
      .strict(),
    action: z.enum(['deny_install', 'allow']),
    feedback: feedbackSchema.optional(),
  })
  .strict();

const toolRevalidationSchema = z
  .object({
    enabled: z.boolean().default(true),
    interval: durationSchema.default('5m'),
    max_advertised_ttl: durationSchema.optional(),
  })
  .strict();

const policiesSchema = z
  .object({
    default: z.enum(['allow', 'deny']).default('allow'),
    flag_destructive: z.enum(['log', 'require_approval']).optional(),
    on_tool_drift: z.enum(['block', 'require_approval', 'log']).default('block'),
    tool_revalidation: toolRevalidationSchema.optional(),
    dry_run: z.boolean().default(false),
    hot_reload: z.boolean().default(true),
    rules: z.array(ruleSchema).default([]),
    install: z
      .object({
        default: z.enum(['allow', 'deny']).default('allow'),
        rules: z.array(installRuleSchema).default([]),
      })
      .strict()
      .optional(),
  })
  .strict();

const contributorSchema = z
  .unknown()
  .superRefine((raw, ctx) => {
    // The pre-0.11 flat { tool, field } shape gets a migration hint instead of unknown-key noise.
    if (raw !== null && typeof raw === 'object' && 'tool' in raw) {
      ctx.addIssue({
        code: 'custom',
        message:
          'contributor "tool" moved under "match": write { match: { tool: "<glob>" }, field: "<path>" }',
      });
    }
  })
  .pipe(
    z
      .object({
        match: z
          .object({ tool: globSchema, input: z.record(z.string(), inputConditionSchema).optional() })
          .strict(),
        field: z.string().min(1),
      })
      .strict(),
  );

const budgetSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, 'budget names may only contain letters, digits, "_" and "-"'),
    // Amounts are kept in millionths: a smaller positive limit would round to a pot that admits nothing.
    limit: z
      .number()
      .positive()
      .refine((limit) => (toMicroUnits(limit) ?? 1n) > 0n, 'limit must be at least 0.000001'),
    currency: z.string().min(1),
    window: z.union([durationSchema, z.literal('session')]),
    key: z.enum(['global', 'session', 'sender_id']).default('global'),
    on_exceed: z.enum(['deny', 'require_approval']).default('deny'),
    approval: approvalRoutingSchema.optional(),
    idle_ttl: durationSchema.optional(),
    contributors: z.array(contributorSchema).min(1),
  })
  .strict();

const channelSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('slack'),
      name: z.string().min(1).optional(),
      bot_token: z.string(),
      signing_secret: z.string(),
      channel: z.string(),
    })
    .strict(),
  z
    .object({
      type: z.literal('webhook'),
      name: z.string().min(1).optional(),
      url: z.string(),
      secret: z.string().optional(),
    })
    .strict(),
  z.object({ type: z.literal('dashboard'), name: z.string().min(1).optional() }).strict(),
]);

const approvalSchema = z
  .object({
    timeout: durationSchema.default('300s'),
    default_on_timeout: z.enum(['deny', 'allow']).default('deny'),
    channels: z.array(channelSchema).default([]),
  })
  .strict();

const auditSchema = z
  .object({
    storage: z.enum(['sqlite']).default('sqlite'),
    path: z.string().default('./helio-audit.db'),
    retention: durationSchema.default('90d'),
    include_responses: z.boolean().default(true),
  })
  .strict();

const sdkSchema = z
  .object({
    enabled: z.boolean().default(false),
    port: portSchema.default(3200),
    // The reference binds every interface for "": Helios refuses to guess, the address must be written.
    host: z
      .string()
      .min(1, 'must name the address to bind (write 0.0.0.0 or :: for every interface)')
      .default('127.0.0.1'),
    evaluation_ttl: durationSchema.default('10m'),
  })
  .strict();

function versionMessage(input: unknown): string {
  if (input === undefined) return 'is required';
  return input === 1 ? `must be the string '1' (quote it: version: '1')` : `must be the string '1'`;
}

export const policyDocumentSchema = z
  .object({
    // The string only, as in the reference (YAML reads an unquoted `version: 1` as a number, which the
    // reference refuses): a policy that loads here loads there.
    version: z.literal('1', { error: (issue) => versionMessage(issue.input) }),
    upstream: upstreamSchema.optional(),
    listen: listenSchema.prefault({}),
    environment: z.string().optional(),
    session: sessionSchema.prefault({}),
    policies: policiesSchema.prefault({}),
    budgets: z.array(budgetSchema).default([]),
    approval: approvalSchema.prefault({}),
    audit: auditSchema.prefault({}),
    dashboard: dashboardSchema.prefault({}),
    sdk: sdkSchema.prefault({}),
  })
  .strict();

export type PolicyDocument = z.output<typeof policyDocumentSchema>;
export type RuleConfig = PolicyDocument['policies']['rules'][number];
export type BudgetConfig = PolicyDocument['budgets'][number];
export type InputConditionConfig = z.output<typeof inputConditionSchema>;
export type MetadataConditionConfig = z.output<typeof metadataConditionSchema>;
export type InstallRuleConfig = z.output<typeof installRuleSchema>;
export type ApprovalRoutingConfig = z.output<typeof approvalRoutingSchema>;
