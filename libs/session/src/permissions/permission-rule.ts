/**
 * A permission rule written `Tool(glob)` or just `Tool`. The glob matches the binding's permission key
 * as a whole: `**` any characters, `*` any except `/`, `?` one character except `/`.
 */
import { InvalidArgumentError } from '@helios/core';
import { compileKeyGlob } from './key-glob.js';

export const PermissionEffect = { ALLOW: 'ALLOW', ASK: 'ASK', DENY: 'DENY' } as const;
export type PermissionEffect = (typeof PermissionEffect)[keyof typeof PermissionEffect];

export interface PermissionRule {
  readonly effect: PermissionEffect;
  readonly toolName: string;
  /** Absent: the rule matches every call of the tool. */
  readonly argPattern?: string;
  readonly matches: (toolName: string, key: string) => boolean;
}

const RULE = /^([^()\s]+)(?:\((.*)\))?$/s;

export function permissionRule(
  effect: PermissionEffect,
  toolName: string,
  argPattern?: string,
): PermissionRule {
  if (typeof toolName !== 'string' || toolName.trim() === '') {
    throw new InvalidArgumentError('permission rule needs a tool name');
  }
  const pattern = argPattern === undefined ? undefined : compileKeyGlob(argPattern);
  return Object.freeze({
    effect,
    toolName,
    ...(argPattern === undefined ? {} : { argPattern }),
    matches: (name: string, key: string) => name === toolName && (pattern === undefined || pattern(key)),
  });
}

/** Parses `Write(**)`, `Execute` or `Read(./src/*.ts)`. */
export function parseRule(effect: PermissionEffect, text: string): PermissionRule {
  const match = RULE.exec(text.trim());
  if (!match)
    throw new InvalidArgumentError(
      `permission rule must read Tool or Tool(glob), got ${JSON.stringify(text)}`,
    );
  return permissionRule(effect, match[1] as string, match[2]);
}

/** `Tool(glob)`, or `Tool` for a rule without a pattern. */
export function formatRule(rule: PermissionRule): string {
  return rule.argPattern === undefined ? rule.toolName : `${rule.toolName}(${rule.argPattern})`;
}

/** How a call reads in reasons and questions: `Write(./notes.md)`, or `Write` when its key is empty. */
export function formatCall(toolName: string, key: string): string {
  return key === '' ? toolName : `${toolName}(${key})`;
}
