import { type Clock } from '@helios/governance';

/** The compiled policy, or null when `governance.policy` is unset (no governance in this process). */
export const GOVERNANCE_POLICY = Symbol('GOVERNANCE_POLICY');

/** The engine's clock: the system clock in production, a manual one in conformance tests. */
export const GOVERNANCE_CLOCK = Symbol('GOVERNANCE_CLOCK');

export type GovernanceClock = Clock | null;
