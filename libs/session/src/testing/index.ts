/**
 * @helios/session/testing — the package's test kit: the SessionStore contract every store runs (in
 * memory, files, PostgreSQL). Imports `vitest`; use it from tests only.
 */
export {
  describeSessionStoreContract,
  everyEntryKind,
  type SessionStoreSubject,
} from './session-store-contract.js';
