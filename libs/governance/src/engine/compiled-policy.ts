/** The policy as the engine runs it: globs and regexes compiled, durations in ms, money in micro-units. */
import { type InputCondition, type MetadataCondition } from './conditions.js';
import { type NameMatcher } from '../util/glob.js';
import { type ToolAnnotations } from './annotations.js';
import { type PolicyDocument } from '../config/policy-schema.js';

export type PolicyAction = 'allow' | 'deny' | 'require_approval' | 'rate_limit' | 'spend_limit' | 'dry_run';

/** Scope of a rule limit's bucket; `agent` is accepted but, as in the reference, scoped like `tool`. */
export type RuleLimitKey = 'tool' | 'agent' | 'session' | 'sender_id';

export type RuleLimit =
  | {
      readonly type: 'rate';
      readonly maxCalls: number;
      readonly windowMs: number;
      readonly key: RuleLimitKey;
    }
  | {
      readonly type: 'spend';
      readonly field: readonly string[];
      readonly fieldText: string;
      /** Integer micro-units of `currency`. */
      readonly limit: bigint;
      readonly currency: string;
      /** 0: nothing charged stays in the window, so each call is judged on its own amount. */
      readonly windowMs: number;
      readonly key: RuleLimitKey;
    };

export interface Feedback {
  readonly message: string;
  readonly suggestion?: string;
}

export interface CompiledRule {
  readonly index: number;
  readonly name: string | undefined;
  readonly action: PolicyAction;
  readonly tool: NameMatcher | undefined;
  readonly annotations: Partial<ToolAnnotations> | undefined;
  readonly input: readonly InputCondition[];
  readonly environment: string | undefined;
  readonly metadata: readonly MetadataCondition[];
  readonly approvalTimeoutMs: number | undefined;
  readonly evidenceKeys: readonly string[];
  readonly requiredTools: readonly string[];
  readonly requiresSuccess: boolean;
  /** Undefined for actions without a limit, and for a rate limit with a zero window (no limit, as in the reference). */
  readonly limit: RuleLimit | undefined;
  readonly feedback: Feedback | undefined;
}

export interface CompiledInstallRule {
  readonly index: number;
  readonly name: string | undefined;
  readonly packageName: NameMatcher | undefined;
  readonly source: string | undefined;
  readonly metadata: readonly MetadataCondition[];
  readonly action: 'deny_install' | 'allow';
  readonly feedback: Feedback | undefined;
}

/** `ms: 0` judges each call on its own amount; `idleTtlMs: 0` ends a pot as soon as nothing is pending. */
export type BudgetWindow =
  | { readonly type: 'sliding'; readonly ms: number }
  | { readonly type: 'session'; readonly idleTtlMs: number };

export interface CompiledContributor {
  readonly tool: NameMatcher;
  readonly input: readonly InputCondition[];
  readonly field: readonly string[];
}

export interface CompiledBudget {
  readonly index: number;
  readonly name: string;
  /** Integer micro-units of `currency`. */
  readonly limit: bigint;
  readonly currency: string;
  readonly window: BudgetWindow;
  /** The configured text (`"1h"` or `"session"`), echoed on the wire. */
  readonly windowText: string;
  readonly key: 'global' | 'session' | 'sender_id';
  readonly onExceed: 'deny' | 'require_approval';
  readonly approvalTimeoutMs: number | undefined;
  readonly contributors: readonly CompiledContributor[];
  /** The tuple whose change starts a new epoch (a fresh pot): limit, currency, window, key. */
  readonly identity: string;
}

export interface CompiledPolicy {
  readonly environment: string | undefined;
  readonly defaultAction: 'allow' | 'deny';
  readonly flagDestructive: 'log' | 'require_approval' | undefined;
  readonly onToolDrift: 'block' | 'require_approval' | 'log';
  readonly dryRun: boolean;
  readonly rules: readonly CompiledRule[];
  /** Absent: install scans are observational. */
  readonly install:
    { readonly defaultAction: 'allow' | 'deny'; readonly rules: readonly CompiledInstallRule[] } | undefined;
  readonly budgets: readonly CompiledBudget[];
  /** Union of every rule's `evidence.requires`: the only keys evidence may be written under. */
  readonly evidenceKeys: ReadonlySet<string>;
  /** Every tool some rule's `requires` names. */
  readonly requiredTools: ReadonlySet<string>;
  readonly onUnresolvedSession: 'deny' | 'anonymous';
  /** 0: a ticket is timed out at its first deadline check (as every zero, see config/zero-durations.ts). */
  readonly approvalTimeoutMs: number;
  /** 0: every evaluation awaiting /audit is expired at once, its holds void. */
  readonly evaluationTtlMs: number;
  readonly document: PolicyDocument;
}
