/**
 * A racing writer (a separate process) flips paths between a file inside the root and a link to a
 * secret outside while the workspace reads them thousands of times: strict I/O never returns the secret.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspacePathError, WorkspaceRoot } from '../../src/index.js';
import { makeSandbox, type Sandbox, SECRET } from './fixtures.js';

const READS = 3000;

/** Node code for the child: flips `target` between a regular file and a link (atomically, by rename). */
const FLIPPER = `
const fs = require('node:fs');
const [target, stage, linkTo, inside] = process.argv.slice(1);
for (let i = 0; ; i++) {
  const tmp = stage + (i % 2);
  try { fs.rmSync(tmp, { recursive: true, force: true }); } catch {}
  if (i % 2 === 0) {
    if (inside === 'dir') { fs.mkdirSync(tmp); fs.writeFileSync(tmp + '/secret.txt', 'inside'); }
    else fs.writeFileSync(tmp, 'inside');
  } else fs.symlinkSync(linkTo, tmp);
  try { fs.renameSync(tmp, target); } catch { fs.rmSync(target, { recursive: true, force: true }); }
}
`;

let box: Sandbox;
let flipper: ChildProcess | undefined;

beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => {
  flipper?.kill('SIGKILL');
  box.cleanup();
});

function startFlipper(target: string, linkTo: string, inside: 'file' | 'dir'): Promise<void> {
  const stage = join(box.root, '.stage');
  flipper = spawn(process.execPath, ['-e', FLIPPER, target, stage, linkTo, inside], { stdio: 'ignore' });
  return new Promise((ready) => setTimeout(ready, 50));
}

async function hammer(ws: WorkspaceRoot, path: string): Promise<Record<string, number>> {
  const outcomes: Record<string, number> = {};
  for (let i = 0; i < READS; i++) {
    let outcome: string;
    try {
      outcome = (await ws.readFile(path, { maxBytes: 1024 })).toString();
    } catch (error) {
      if (!(error instanceof WorkspacePathError)) throw error;
      outcome = error.reason;
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  return outcomes;
}

describe('symlink swapped in after authorisation, under a racing writer process', () => {
  it(`never reads the outside file through a flipping leaf (${READS} reads)`, async () => {
    writeFileSync(join(box.root, 'target'), 'inside');
    await startFlipper(join(box.root, 'target'), join(box.outside, 'secret.txt'), 'file');
    const outcomes = await hammer(new WorkspaceRoot(box.root), 'target');
    expect(outcomes[SECRET]).toBeUndefined();
    expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(READS);
  }, 60_000);

  it(`never reads the outside file through a flipping ancestor directory (${READS} reads)`, async () => {
    mkdirSync(join(box.root, 'gate'));
    writeFileSync(join(box.root, 'gate', 'secret.txt'), 'inside');
    await startFlipper(join(box.root, 'gate'), box.outside, 'dir');
    const outcomes = await hammer(new WorkspaceRoot(box.root), 'gate/secret.txt');
    expect(outcomes[SECRET]).toBeUndefined();
  }, 60_000);
});
