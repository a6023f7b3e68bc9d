/** Time-ordered identifiers (UUIDv7) so traces and spans sort by creation in any store. */
import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;

// Random bytes are drawn in bulk: one randomFillSync per id was a measurable part of every loop turn.
const POOL_IDS = 256;
const pool = new Uint8Array(16 * POOL_IDS);
let poolOffset = pool.length;
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** The 36 characters of the id being written, turned into one flat string at the end. */
const out = Buffer.alloc(36);
const DASH = 0x2d;

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
  // One flat string decoded from bytes: `+=` would build a rope of ~20 cons-strings per id, which every
  // record or pending entry that keeps an id then holds (and the collector walks) for its lifetime.
  let position = 0;
  for (let i = 0; i < 16; i += 1) {
    if (i === 4 || i === 6 || i === 8 || i === 10) out[position++] = DASH;
    const byte = pool[at + i] ?? 0;
    out[position++] = HEX_DIGITS[byte >> 4] ?? 0;
    out[position++] = HEX_DIGITS[byte & 0xf] ?? 0;
  }
  return out.toString('latin1', 0, 36);
}
