import { parseRule, PermissionEffect, PermissionMode } from '@helios/session';
import { z } from 'zod';
import { EXECUTION_KINDS } from './sandbox.schema.js';

/** Agent names appear in URLs' bodies, listings and file names: keep them plain. */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A permission rule (`Read(**)`, `Execute`), parsed here so a typo fails at start, by path. */
const rule = z.string().superRefine((text, ctx) => {
  try {
    parseRule(PermissionEffect.ALLOW, text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
  }
});

const permission = z.strictObject({
  mode: z.enum(Object.values(PermissionMode) as [PermissionMode, ...PermissionMode[]]).default('DEFAULT'),
  allow: z.array(rule).default([]),
  ask: z.array(rule).default([]),
  deny: z.array(rule).default([]),
});

/** Integer micro-USD: a YAML integer, or a string of digits for amounts past 2^53. */
const microUsd = z
  .union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,30}$/)])
  .transform((value) => BigInt(value));

const limits = z.strictObject({
  maxTurns: z.number().int().min(1).max(10_000).optional(),
  maxBudgetMicroUsd: microUsd.optional(),
  maxWallClockMs: z
    .number()
    .int()
    .min(1_000)
    .max(7 * 24 * 3_600_000)
    .optional(),
});

export const AGENT_PRESETS = ['minimal', 'readOnly', 'workspace'] as const;
export const AGENT_STORES = ['memory', 'file', 'postgres'] as const;

const agent = z
  .strictObject({
    /** `provider/model`, e.g. `openai-compatible/llama3.1`; `scripted/demo` is the built-in demo. */
    model: z.string().regex(/^[^/\s]+\/\S+$/, 'expected <provider>/<model>'),
    /** Else the provider's base URL (OPENAI_BASE_URL for openai-compatible). */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** May be `${ENV}`; else the provider's environment variable. Never listed or logged. */
    apiKey: z.string().min(1).optional(),
    systemPrompt: z.string().max(1_000_000).optional(),
    preset: z.enum(AGENT_PRESETS).default('minimal'),
    /** The root of the file tools (readOnly, workspace); relative to the working directory. */
    workspace: z.string().min(1).optional(),
    /** Replaces the preset's policy. */
    permission: permission.optional(),
    limits: limits.optional(),
    traceDetail: z.enum(['STANDARD', 'VERBOSE']).optional(),
    /** Where the conversation is kept: only while registered (memory), `<dataDir>/sessions` (file), PostgreSQL. */
    store: z.enum(AGENT_STORES).default('memory'),
    /** The Execute tool on `sandbox:`'s provider: javascript (JAVASCRIPT, TYPESCRIPT) or bash (no sandbox). */
    execution: z.enum(EXECUTION_KINDS).optional(),
  })
  .superRefine((value, ctx) => {
    const needsRoot = value.preset !== 'minimal';
    if (needsRoot && value.workspace === undefined) {
      ctx.addIssue({ code: 'custom', path: ['workspace'], message: `required by preset ${value.preset}` });
    }
    if (!needsRoot && value.workspace !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['workspace'], message: 'preset minimal has no file tools' });
    }
  });

/** `agents:` — the agents `POST /v1/sessions` may name. Absent: the built-in scripted `demo` agent. */
export const agentsSchema = z
  .record(z.string().regex(AGENT_NAME, 'agent names are 1-64 of [A-Za-z0-9._-]'), agent)
  .refine((agents) => Object.keys(agents).length > 0, 'name at least one agent, or omit agents:');

export type AgentConfig = z.infer<typeof agent>;
export type AgentsConfig = z.infer<typeof agentsSchema>;
