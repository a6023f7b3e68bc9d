/**
 * @helios/session — AgentSession: the steerable multi-run agent loop with events, hooks, permissions, limits and stores.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {};
