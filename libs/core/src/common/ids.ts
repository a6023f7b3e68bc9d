/** Time-ordered identifiers (UUIDv7) so traces and spans sort by creation in any store. */
import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;

// Random bytes are drawn in bulk: one randomFillSync per id was a measurable part of every loop turn.
const POOL_IDS = 256;
const pool = new Uint8Array(16 * POOL_IDS);
let poolOffset = pool.length;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** A UUIDv7: 48-bit millisecond timestamp, 12-bit monotonic counter within the millisecond, random rest. */
export function newId(now: number = Date.now()): string {
  if (now === lastMs) {
    counter = (counter + 1) & 0xfff;
  } else {
    lastMs = now;
    counter = 0;
  }
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += 16;
  let ms = now;
  for (let i = 5; i >= 0; i -= 1) {
    pool[at + i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  pool[at + 6] = 0x70 | (counter >> 8);
  pool[at + 7] = counter & 0xff;
  pool[at + 8] = 0x80 | ((pool[at + 8] ?? 0) & 0x3f);
  let hex = '';
  for (let i = 0; i < 16; i += 1) {
    if (i === 4 || i === 6 || i === 8 || i === 10) hex += '-';
    hex += HEX[pool[at + i] ?? 0];
  }
  return hex;
}
