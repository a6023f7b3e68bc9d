/**
 * What the CommandGrant tests share: a call context on a given registry and signal, and whether a
 * pid still names a live process (a zombie is dead; only its parent's wait, maybe init's, removes it).
 */
import { readFileSync } from 'node:fs';
import { parseStat } from './process-table.js';
import { type SecretRegistry } from '../secrets/secret-registry.js';
import { SessionContext, ToolContext, type OwnedToolContext } from '../tool/tool-context.js';

export function callContext(
  registry: SecretRegistry,
  signal: AbortSignal = new AbortController().signal,
): OwnedToolContext {
  return ToolContext.create(SessionContext.create('grant-test', signal, registry), { timeoutMs: 60_000 });
}

export function isAlive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false; // no such process
  }
  return parseStat(stat)?.exited === false;
}

/** Polls until `pid` is gone; resolves whether it went within `ms`. */
export async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}
