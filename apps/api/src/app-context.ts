import { type HeliosConfig } from './config/config.schema.js';
import { type GovernanceRuntime } from './governance/governance-runtime.js';
import { type Database } from './persistence/database.js';

/** What the bootstrap hands to Nest: resolved configuration and the open database. */
export interface AppContext {
  readonly config: HeliosConfig;
  readonly database: Database;
  /** Present when a governance policy is configured. */
  readonly governance: GovernanceRuntime | undefined;
  readonly version: string;
  readonly startedAt: Date;
  /** Set when shutdown begins, so readiness turns 503 while in-flight requests drain. */
  readonly lifecycle: { shuttingDown: boolean };
}

export const APP_CONTEXT = Symbol('APP_CONTEXT');
