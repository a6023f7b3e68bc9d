/**
 * A session's permission policy: a mode plus allow, ask and deny rules. Evaluation order: deny rule →
 * BYPASS_PERMISSIONS mode → allow rule → ask rule → the category default of the mode.
 */
import { InvalidArgumentError } from '@helios/core';
import { type ToolCategory } from '../tools/tool-binding.js';
import {
  formatCall,
  formatRule,
  parseRule,
  PermissionEffect,
  type PermissionRule,
} from './permission-rule.js';

export const PermissionMode = {
  DEFAULT: 'DEFAULT',
  ACCEPT_EDITS: 'ACCEPT_EDITS',
  PLAN: 'PLAN',
  LOCKED_DOWN: 'LOCKED_DOWN',
  BYPASS_PERMISSIONS: 'BYPASS_PERMISSIONS',
} as const;
export type PermissionMode = (typeof PermissionMode)[keyof typeof PermissionMode];

export interface PermissionDecision {
  readonly effect: PermissionEffect;
  /** Why, in words a person approving the call reads: `ask rule Write(**) matched Write(./notes.md)`. */
  readonly reason: string;
}

const { ALLOW, ASK, DENY } = PermissionEffect;

/** Category × mode defaults, exactly the reference's table. */
const DEFAULTS: Readonly<Record<ToolCategory, Readonly<Record<PermissionMode, PermissionEffect>>>> = {
  READ: { DEFAULT: ALLOW, ACCEPT_EDITS: ALLOW, PLAN: ALLOW, LOCKED_DOWN: DENY, BYPASS_PERMISSIONS: ALLOW },
  SEARCH: { DEFAULT: ALLOW, ACCEPT_EDITS: ALLOW, PLAN: ALLOW, LOCKED_DOWN: DENY, BYPASS_PERMISSIONS: ALLOW },
  WRITE: { DEFAULT: ASK, ACCEPT_EDITS: ALLOW, PLAN: DENY, LOCKED_DOWN: DENY, BYPASS_PERMISSIONS: ALLOW },
  EXECUTION: { DEFAULT: ASK, ACCEPT_EDITS: ASK, PLAN: DENY, LOCKED_DOWN: DENY, BYPASS_PERMISSIONS: ALLOW },
  NETWORK: { DEFAULT: ASK, ACCEPT_EDITS: ASK, PLAN: ASK, LOCKED_DOWN: DENY, BYPASS_PERMISSIONS: ALLOW },
  CONTROL: { DEFAULT: ALLOW, ACCEPT_EDITS: ALLOW, PLAN: ALLOW, LOCKED_DOWN: DENY, BYPASS_PERMISSIONS: ALLOW },
  DELEGATION: {
    DEFAULT: ALLOW,
    ACCEPT_EDITS: ALLOW,
    PLAN: ALLOW,
    LOCKED_DOWN: DENY,
    BYPASS_PERMISSIONS: ALLOW,
  },
};

export function categoryDefault(category: ToolCategory, mode: PermissionMode): PermissionEffect {
  return DEFAULTS[category][mode];
}

/** A permission's rules by effect, each as text (`Write(**)`) or built with `permissionRule`. */
export interface PermissionRules {
  readonly allow?: readonly (string | PermissionRule)[];
  readonly ask?: readonly (string | PermissionRule)[];
  readonly deny?: readonly (string | PermissionRule)[];
}

export class Permission {
  readonly mode: PermissionMode;
  readonly allow: readonly PermissionRule[];
  readonly ask: readonly PermissionRule[];
  readonly deny: readonly PermissionRule[];

  /** Rules as text (`Write(**)`) or built with `permissionRule`; each list defaults to none. */
  constructor(mode: PermissionMode, rules: PermissionRules = {}) {
    const { allow = [], ask = [], deny = [] } = rules;
    if (!Object.values(PermissionMode).includes(mode)) {
      throw new InvalidArgumentError(`unknown permission mode ${JSON.stringify(mode)}`);
    }
    this.mode = mode;
    this.allow = toRules(ALLOW, allow);
    this.ask = toRules(ASK, ask);
    this.deny = toRules(DENY, deny);
    Object.freeze(this);
  }

  static empty(mode: PermissionMode = PermissionMode.DEFAULT): Permission {
    return new Permission(mode);
  }

  /** Reads and memory allowed under the workspace; writes, edits and execution asked. */
  static defaultInWorkspace(): Permission {
    return new Permission(PermissionMode.DEFAULT, {
      allow: [
        'Read(./**)',
        'LS(./**)',
        'Glob(./**)',
        'Grep(./**)',
        'MemoryRead(/memories/**)',
        'MemoryWrite(/memories/**)',
      ],
      ask: ['Write(./**)', 'Edit(./**)', 'MultiEdit(./**)', 'Execute'],
    });
  }

  static planMode(): Permission {
    return new Permission(PermissionMode.PLAN, {
      allow: ['Read(./**)', 'LS(./**)', 'Glob(./**)', 'Grep(./**)'],
    });
  }

  static lockedDown(): Permission {
    return new Permission(PermissionMode.LOCKED_DOWN, { allow: ['Execute', 'AskUserQuestion'] });
  }

  /** Decides one call of a known tool. */
  evaluate(toolName: string, key: string, category: ToolCategory): PermissionDecision {
    const call = formatCall(toolName, key);
    const deny = this.deny.find((rule) => rule.matches(toolName, key));
    if (deny) return decision(DENY, `deny rule ${formatRule(deny)} matched ${call}`);
    if (this.mode === PermissionMode.BYPASS_PERMISSIONS) return decision(ALLOW, 'mode BYPASS_PERMISSIONS');
    const allow = this.allow.find((rule) => rule.matches(toolName, key));
    if (allow) return decision(ALLOW, `allow rule ${formatRule(allow)} matched ${call}`);
    const ask = this.ask.find((rule) => rule.matches(toolName, key));
    if (ask) return decision(ASK, `ask rule ${formatRule(ask)} matched ${call}`);
    const effect = categoryDefault(category, this.mode);
    return decision(effect, `${category} tools default to ${effect.toLowerCase()} in ${this.mode} mode`);
  }
}

function decision(effect: PermissionEffect, reason: string): PermissionDecision {
  return Object.freeze({ effect, reason });
}

function toRules(
  effect: PermissionEffect,
  rules: readonly (string | PermissionRule)[],
): readonly PermissionRule[] {
  return Object.freeze(rules.map((rule) => (typeof rule === 'string' ? parseRule(effect, rule) : rule)));
}
