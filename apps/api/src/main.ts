import { loadConfig } from './config/load-config.js';
import { exitWithStartupError } from './cli/fail.js';
import { startServer, type RunningServer } from './server.js';

let server: RunningServer;
try {
  server = await startServer(loadConfig().config);
} catch (error) {
  exitWithStartupError(error);
}

let stopping = false;
function shutdown(signal: string, exitCode: number): void {
  if (stopping) {
    process.stderr.write(`helios: ${signal} again, exiting without waiting\n`);
    process.exit(1);
  }
  stopping = true;
  server.close().then(
    () => process.exit(exitCode),
    (error: unknown) => {
      process.stderr.write(
        `helios: shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}

process.on('SIGTERM', () => shutdown('SIGTERM', 0));
process.on('SIGINT', () => shutdown('SIGINT', 0));
// An unexpected error is a bug: report it, then still stop cleanly so the embedded database is not orphaned.
process.on('uncaughtException', (error) => {
  process.stderr.write(`helios: uncaught exception: ${error.stack ?? error.message}\n`);
  shutdown('uncaughtException', 1);
});
process.on('unhandledRejection', (reason) => {
  process.stderr.write(
    `helios: unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`,
  );
  shutdown('unhandledRejection', 1);
});
