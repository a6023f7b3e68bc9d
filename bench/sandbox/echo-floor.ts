/**
 * The floor under every sandbox round trip: a bare child `node` that echoes each line it reads on fd 3
 * (a socketpair, as the sandbox's channel is), blocking on readSync as the sandbox child does. One
 * round trip = the host writes a line and reads it back.
 */
import { spawn } from 'node:child_process';
import { type Duplex } from 'node:stream';
import { median } from '../median.ts';

const ECHO_CHILD = `
import { readSync, writeSync } from 'node:fs';
const buffer = Buffer.alloc(65536);
let pending = '';
for (;;) {
  const read = readSync(3, buffer, 0, buffer.length, null);
  if (read === 0) process.exit(0);
  pending += buffer.toString('utf8', 0, read);
  for (let newline = pending.indexOf('\\n'); newline >= 0; newline = pending.indexOf('\\n')) {
    writeSync(3, pending.slice(0, newline + 1));
    pending = pending.slice(newline + 1);
  }
}`;

/** Median round trip in milliseconds over `rounds` echoes of a small JSON frame. */
export async function echoFloorMs(rounds: number): Promise<number> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', ECHO_CHILD], {
    env: {},
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  });
  const channel = child.stdio[3] as Duplex;
  channel.setEncoding('utf8');
  let waiting: (() => void) | undefined;
  channel.on('data', () => waiting?.());
  const frame = `${JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'execute', params: { code: '1+1' } })}\n`;
  const once = () =>
    new Promise<number>((resolve) => {
      const start = process.hrtime.bigint();
      waiting = () => resolve(Number(process.hrtime.bigint() - start) / 1e6);
      channel.write(frame);
    });
  for (let i = 0; i < 50; i += 1) await once(); // warm both ends
  const samples: number[] = [];
  for (let i = 0; i < rounds; i += 1) samples.push(await once());
  child.kill('SIGKILL');
  return median(samples);
}
