/**
 * @helios/migrations — every schema change of the Helios database, in order. Each has `up` and `down`;
 * the API runs them at start and `npm run migrate` / `npm run migrate:revert` run them by hand.
 */
import { GovernanceAudit1764547200000 } from './1764547200000-governance-audit.js';
import { InstanceMetadata1764460800000 } from './1764460800000-instance-metadata.js';
import { GovernanceStores1764633600000 } from './1764633600000-governance-stores.js';
import { PendingBacklogSplit1764720000000 } from './1764720000000-pending-backlog-split.js';
import { PendingSeqUnindexed1764806400000 } from './1764806400000-pending-seq-unindexed.js';
import { PendingAutovacuum1764892800000 } from './1764892800000-pending-autovacuum.js';
import { MoneyNumeric1764979200000 } from './1764979200000-money-numeric.js';
import { LimitFunctions1765065600000 } from './1765065600000-limit-functions.js';
import { LimitRunningSums1765152000000 } from './1765152000000-limit-running-sums.js';
import { AnnotationsPrompts1765238400000 } from './1765238400000-annotations-prompts.js';
import { Traces1765324800000 } from './1765324800000-traces.js';
import { SessionStore1765411200000 } from './1765411200000-session-store.js';
import { LimitRetirementBounds1765497600000 } from './1765497600000-limit-retirement-bounds.js';
import { LimitLocalAuthority1765584000000 } from './1765584000000-limit-local-authority.js';
import {
  ANALYZE_THRESHOLD,
  BUSY_TABLES,
  NO_STATISTICS,
  PlannerStatistics1765670400000,
} from './1765670400000-planner-statistics.js';
import { LEDGER_NO_STATISTICS, OwnedBudgetLedger1765756800000 } from './1765756800000-owned-budget-ledger.js';
import {
  JOURNAL_BUSY_TABLES,
  JOURNAL_NO_STATISTICS,
  OwnerChargeJournal1765843200000,
} from './1765843200000-owner-charge-journal.js';

export {
  AnnotationsPrompts1765238400000,
  GovernanceAudit1764547200000,
  GovernanceStores1764633600000,
  InstanceMetadata1764460800000,
  LimitFunctions1765065600000,
  LimitLocalAuthority1765584000000,
  LimitRetirementBounds1765497600000,
  LimitRunningSums1765152000000,
  MoneyNumeric1764979200000,
  OwnedBudgetLedger1765756800000,
  OwnerChargeJournal1765843200000,
  PendingAutovacuum1764892800000,
  PendingBacklogSplit1764720000000,
  PendingSeqUnindexed1764806400000,
  PlannerStatistics1765670400000,
  SessionStore1765411200000,
  Traces1765324800000,
};

/**
 * The planner settings of PlannerStatistics (and of OwnedBudgetLedger's and OwnerChargeJournal's columns), for the schema-drift
 * test's list of what entities cannot say.
 */
export const plannerStatistics = {
  analyzeThreshold: ANALYZE_THRESHOLD,
  busyTables: [...BUSY_TABLES, ...JOURNAL_BUSY_TABLES],
  noStatistics: [...NO_STATISTICS, ...LEDGER_NO_STATISTICS, ...JOURNAL_NO_STATISTICS],
} as const;

/** Ordered oldest first; TypeORM also orders by the timestamp in each class name. */
export const migrations = [
  InstanceMetadata1764460800000,
  GovernanceAudit1764547200000,
  GovernanceStores1764633600000,
  PendingBacklogSplit1764720000000,
  PendingSeqUnindexed1764806400000,
  PendingAutovacuum1764892800000,
  MoneyNumeric1764979200000,
  LimitFunctions1765065600000,
  LimitRunningSums1765152000000,
  AnnotationsPrompts1765238400000,
  Traces1765324800000,
  SessionStore1765411200000,
  LimitRetirementBounds1765497600000,
  LimitLocalAuthority1765584000000,
  PlannerStatistics1765670400000,
  OwnedBudgetLedger1765756800000,
  OwnerChargeJournal1765843200000,
] as const;
