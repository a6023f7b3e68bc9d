/**
 * @helios/persistence/testing — helpers for tests and benchmarks, kept out of the main entry: a scratch
 * database per test file, ports, process probes, and the embedded server's superuser for inspecting
 * what the API wrote. Production code imports none of this.
 */
export { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';
export { freePort } from '../embedded/free-port.js';
export { commandLine, isAlive, stopPostmaster, waitForExit } from '../embedded/process-utils.js';
export { embeddedSuperuserClient, LOCK_FILE } from '../embedded/superuser-client.js';
