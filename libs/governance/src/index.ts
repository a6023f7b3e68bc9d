/**
 * @helios/governance — Tool-call policy engine: rules, limits, budgets, approvals, evidence, drift and audit.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {};
