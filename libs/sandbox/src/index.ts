/**
 * @helios/sandbox — Execution providers for sandboxed code execution.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {};
