import { z } from 'zod';

const timeoutMs = z.number().int().min(1).max(3_600_000);

/**
 * `sandbox:` — the execution providers an agent's `execution:` names (SandboxModule). One provider of each
 * kind per server, shared by every agent that uses it, so its caps (sandboxes, calls at once) are server-wide.
 */
export const sandboxSchema = z
  .strictObject({
    /** JavaScript/TypeScript snippets in a child Node running QuickJS-in-WASM (docs/security/sandbox.md). */
    javascript: z
      .strictObject({
        /** The OS layer: `auto` uses bubblewrap when it works here, `required` refuses sessions without it. */
        osSandbox: z.enum(['required', 'auto', 'off']).default('auto'),
        /** The static check of each snippet: permissive | standard | strict. */
        policy: z.enum(['permissive', 'standard', 'strict']).default('standard'),
        memoryLimitMiB: z.number().int().min(1).max(4096).default(64),
        defaultTimeoutMs: timeoutMs.default(30_000),
        maxTimeoutMs: timeoutMs.default(120_000),
        /** Sandboxes (sessions) at once; the next session that needs one is refused at open. */
        maxConcurrentSandboxes: z.number().int().min(1).max(1_000).default(4),
        /** Keep one sandbox booted ahead (~70 MB), so a session opens without a cold start. */
        spareSandbox: z.boolean().default(false),
      })
      .refine((js) => js.defaultTimeoutMs <= js.maxTimeoutMs, {
        message: 'must not exceed maxTimeoutMs',
        path: ['defaultTimeoutMs'],
      })
      .prefault({}),
    /** BASH scripts as local processes: NO sandbox (cleared environment, temp dir, timeouts only). Opt-in. */
    bash: z
      .strictObject({
        enabled: z.boolean().default(false),
        /** Names copied from the server's environment when set there. */
        allowedEnvironment: z
          .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/))
          .default(['LANG', 'LC_ALL', 'TZ']),
        defaultTimeoutMs: timeoutMs.default(30_000),
        maxTimeoutMs: timeoutMs.default(300_000),
        maxConcurrent: z.number().int().min(1).max(1_000).default(4),
      })
      .refine((bash) => bash.defaultTimeoutMs <= bash.maxTimeoutMs, {
        message: 'must not exceed maxTimeoutMs',
        path: ['defaultTimeoutMs'],
      })
      .prefault({}),
  })
  .prefault({});

export type SandboxConfig = z.infer<typeof sandboxSchema>;
export const EXECUTION_KINDS = ['javascript', 'bash'] as const;
export type ExecutionKind = (typeof EXECUTION_KINDS)[number];
