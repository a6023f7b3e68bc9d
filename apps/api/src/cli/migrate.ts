/**
 * `npm run migrate` (up) and `npm run migrate:revert` (down): the same configuration as the API, so
 * without DATABASE_URL it migrates the embedded database in HELIOS_DATA_DIR.
 */
import pino from 'pino';
import { loadConfig } from '../config/load-config.js';
import { migrateDown, migrateUp, openDatabase } from '../persistence/database.js';
import { exitWithStartupError } from './fail.js';

const direction = process.argv[2];
if (direction !== 'up' && direction !== 'down') {
  process.stderr.write('usage: migrate.js up|down\n');
  process.exit(2);
}

try {
  const { config } = loadConfig();
  const log = pino({ level: config.log.level, base: { service: 'helios-migrate' } });
  const database = await openDatabase(config.database, {
    info: (m) => log.info(m),
    warn: (m) => log.warn(m),
  });
  try {
    if (direction === 'up') {
      const applied = await migrateUp(database.dataSource);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'no pending migrations\n');
    } else {
      process.stdout.write(
        (await migrateDown(database.dataSource)) ? 'reverted the last migration\n' : 'nothing to revert\n',
      );
    }
  } finally {
    await database.close();
  }
} catch (error) {
  exitWithStartupError(error);
}
