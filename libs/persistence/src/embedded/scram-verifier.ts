import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

const ITERATIONS = 4096; // PostgreSQL's own default (scram_iterations)

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for `password` (RFC 5802/7677, PostgreSQL's
 * `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>` form). Sending this instead of the
 * password keeps the password itself out of the server's statement logs and pg_stat_activity.
 * `password` must be ASCII without control characters (SASLprep leaves it unchanged then).
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16)): string {
  const salted = pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
