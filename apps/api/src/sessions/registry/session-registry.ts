/**
 * The sessions of every principal. A session is reachable only by the principal that created it: every
 * lookup is by (principal, id), so another principal's session is the same 404 as an unknown id. At most
 * `maxSessionsPerPrincipal` per principal and `maxSessions` in all, finished ones included: to make room
 * the caller's own oldest finished session is closed, never another principal's; otherwise 429 (the
 * caller's cap) or 503 (the registry's), each with Retry-After. A deleted session still running counts
 * until it stops. Every `sweepIntervalMs` the sessions not running for `retentionMs` are closed.
 */
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { HeliosError } from '@helios/core';
import { AgentSession, newSessionId } from '@helios/session';
import { type Identity } from '../../auth/identity.js';
import { RuntimeRefusal } from '../../auth/refusals.js';
import { type HeliosConfig } from '../../config/config.schema.js';
import { HELIOS_CONFIG } from '../../config/config.tokens.js';
import { AgentCatalog } from '../agents/agent-catalog.js';
import { type AgentDefinition } from '../agents/agent-definition.js';
import { SessionOptionsFactory } from '../agents/session-options-factory.js';
import { RegisteredSession } from './registered-session.js';

@Injectable()
export class SessionRegistry implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly #logger = new Logger('Sessions');
  /** Registered sessions by `principalKey \0 id`. */
  readonly #byKey = new Map<string, RegisteredSession>();
  /** What counts against each principal's cap: registered, deleted but still running, being opened. */
  readonly #held = new Map<string, Set<RegisteredSession>>();
  readonly #opening = new Map<string, number>();
  #total = 0;
  #sweep: NodeJS.Timeout | undefined;

  constructor(
    @Inject(HELIOS_CONFIG) private readonly config: HeliosConfig,
    @Inject(AgentCatalog) private readonly catalog: AgentCatalog,
    @Inject(SessionOptionsFactory) private readonly factory: SessionOptionsFactory,
  ) {}

  onApplicationBootstrap(): void {
    this.#sweep = setInterval(() => this.sweep(), this.config.sessions.sweepIntervalMs);
    this.#sweep.unref();
  }

  /** Closes every session (their runs end Cancelled, their event streams end) before the server drains. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.#sweep);
    const all = [...this.#held.values()].flatMap((held) => [...held]);
    this.#byKey.clear();
    await Promise.all(all.map((entry) => entry.session.close()));
  }

  /** Sessions counted against the caps now (registered, deleted but running, being opened). */
  get size(): number {
    return this.#total;
  }

  /** The caller's session `id`; 404 when unknown or another principal's. */
  get(caller: Identity, id: string): RegisteredSession {
    const entry = this.#byKey.get(keyOf(caller.key, id));
    if (entry === undefined) throw new RuntimeRefusal('SESSION_NOT_FOUND');
    return entry;
  }

  /** The caller's sessions, newest first. */
  list(caller: Identity): readonly RegisteredSession[] {
    const held = this.#held.get(caller.key) ?? new Set();
    return [...held]
      .filter((entry) => this.#byKey.get(keyOf(caller.key, entry.id)) === entry)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  /**
   * Opens a session of `agentName` for the caller, or reopens `reopenId` (a session of an agent with a
   * store, whose conversation the store holds for this caller; the live one when it is registered).
   */
  async create(caller: Identity, agentName: string, reopenId?: string): Promise<RegisteredSession> {
    const agent = this.catalog.get(agentName);
    if (agent === undefined) throw new RuntimeRefusal('AGENT_NOT_FOUND');
    if (reopenId !== undefined) {
      const live = this.#byKey.get(keyOf(caller.key, reopenId));
      if (live) return live;
      if (agent.store === undefined) throw new RuntimeRefusal('SESSION_NOT_FOUND');
    }
    this.#admit(caller.key);
    this.#opening.set(caller.key, (this.#opening.get(caller.key) ?? 0) + 1);
    this.#total += 1;
    try {
      return await this.#open(caller, agent, reopenId);
    } finally {
      const opening = (this.#opening.get(caller.key) ?? 1) - 1;
      if (opening === 0) this.#opening.delete(caller.key);
      else this.#opening.set(caller.key, opening);
      this.#total -= 1;
    }
  }

  /** DELETE: unregistered now, closed in the background; it counts until it has stopped. */
  remove(caller: Identity, id: string): void {
    this.#close(this.get(caller, id));
  }

  /** Closes the sessions not running for the retention; returns how many. */
  sweep(now = Date.now()): number {
    const { retentionMs } = this.config.sessions;
    let closed = 0;
    for (const entry of [...this.#byKey.values()]) {
      if (entry.running || now - entry.idleSince < retentionMs) continue;
      this.#close(entry);
      closed += 1;
    }
    if (closed > 0) this.#logger.log(`closed ${closed} session(s) idle for ${retentionMs} ms`);
    return closed;
  }

  async #open(caller: Identity, agent: AgentDefinition, reopenId: string | undefined) {
    const id = reopenId ?? newSessionId();
    const watch = caller.watch();
    try {
      const session = await this.#openSession(agent, id, caller);
      const refusal = watch.signal.aborted
        ? new RuntimeRefusal('UNAUTHENTICATED')
        : reopenId !== undefined && !hasConversation(session)
          ? new RuntimeRefusal('SESSION_NOT_FOUND')
          : undefined;
      const raced = this.#byKey.get(keyOf(caller.key, id));
      if (refusal || raced) {
        await session.close();
        if (refusal) throw refusal;
        return raced as RegisteredSession;
      }
      const { sessions } = this.config;
      const identity = { id, owner: caller.principal, ownerKey: caller.key, agent: agent.name };
      const entry = new RegisteredSession(identity, session, sessions);
      this.#byKey.set(keyOf(caller.key, id), entry);
      this.#hold(caller.key, entry);
      return entry;
    } finally {
      watch.release();
    }
  }

  async #openSession(agent: AgentDefinition, id: string, caller: Identity): Promise<AgentSession> {
    try {
      return await AgentSession.open(this.factory.build(agent, id, caller.principal));
    } catch (error) {
      if (error instanceof HeliosError) throw error; // the store's, the execution provider's: mapped
      this.#logger.error({ err: error }, `opening a session of agent ${agent.name} failed`);
      throw new RuntimeRefusal('SESSION_OPEN_FAILED');
    }
  }

  /** Makes room for one more session of `ownerKey`, or refuses. */
  #admit(ownerKey: string): void {
    const { maxSessionsPerPrincipal, maxSessions } = this.config.sessions;
    const own = (this.#held.get(ownerKey)?.size ?? 0) + (this.#opening.get(ownerKey) ?? 0);
    if (own >= maxSessionsPerPrincipal && !this.#evictOldestFinished(ownerKey)) {
      throw RuntimeRefusal.retryLater('SESSION_LIMIT_REACHED');
    }
    if (this.#total >= maxSessions && !this.#evictOldestFinished(ownerKey)) {
      throw RuntimeRefusal.retryLater('REGISTRY_FULL');
    }
  }

  #evictOldestFinished(ownerKey: string): boolean {
    let oldest: RegisteredSession | undefined;
    for (const entry of this.#held.get(ownerKey) ?? []) {
      const registered = this.#byKey.get(keyOf(ownerKey, entry.id)) === entry;
      if (registered && entry.finished && (!oldest || entry.createdAt < oldest.createdAt)) oldest = entry;
    }
    if (oldest === undefined) return false;
    this.#close(oldest);
    return true;
  }

  #hold(ownerKey: string, entry: RegisteredSession): void {
    let held = this.#held.get(ownerKey);
    if (held === undefined) this.#held.set(ownerKey, (held = new Set()));
    held.add(entry);
    this.#total += 1;
  }

  /** Unregisters and closes; a session not running stops counting at once, a running one once stopped. */
  #close(entry: RegisteredSession): void {
    const key = keyOf(entry.identity.ownerKey, entry.id);
    if (this.#byKey.get(key) === entry) this.#byKey.delete(key);
    const release = () => this.#release(entry);
    if (!entry.running) release();
    void entry.session.close().finally(release);
  }

  #release(entry: RegisteredSession): void {
    const held = this.#held.get(entry.identity.ownerKey);
    if (!held?.delete(entry)) return;
    this.#total -= 1;
    if (held.size === 0) this.#held.delete(entry.identity.ownerKey);
  }
}

function keyOf(ownerKey: string, id: string): string {
  return `${ownerKey}\u0000${id}`;
}

/** A reopened session whose store held nothing for this caller is not theirs to reopen. */
function hasConversation(session: AgentSession): boolean {
  return (
    session.history.some((message) => message.role !== 'system') || session.pendingQuestions().length > 0
  );
}
