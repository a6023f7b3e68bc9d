/**
 * Property test: random path strings against random layouts of files, directories and links (some
 * pointing outside the root, dangling or looping). An escape is any successful resolve, read or write
 * whose target is outside the root: there must be none in 10,000 cases.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspacePathError, WorkspaceRoot } from '../../src/index.js';
import { isInside, SECRET } from './fixtures.js';

const RUNS = 10_000;
const SLOTS = ['a', 'b', 'l1', 'a/c', 'a/l2', 'b/l3', 'a/c/l4'] as const;
const OUTSIDE_ABS = '<outside>';
const ROOT_ABS = '<root>';
const LINK_TARGETS = [
  'a',
  'b',
  'a/c',
  '.',
  '..',
  '../..',
  '../outside',
  '../outside/secret.txt',
  '../../outside/secret.txt',
  OUTSIDE_ABS,
  `${OUTSIDE_ABS}/secret.txt`,
  `${OUTSIDE_ABS}/dir`,
  ROOT_ABS,
  `${ROOT_ABS}/a`,
  'l1',
  'a/l2',
  'missing',
  'missing/deeper',
];
const SEGMENTS = [
  '..',
  '.',
  '',
  'a',
  'b',
  'c',
  'l1',
  'l2',
  'l3',
  'l4',
  'new',
  'secret.txt',
  '%2e%2e',
  '．．',
];

type Slot = { kind: 'missing' } | { kind: 'file' } | { kind: 'dir' } | { kind: 'link'; target: string };

const slotArb: fc.Arbitrary<Slot> = fc.oneof(
  fc.constant({ kind: 'missing' as const }),
  fc.constant({ kind: 'file' as const }),
  fc.constant({ kind: 'dir' as const }),
  fc.constantFrom(...LINK_TARGETS).map((target) => ({ kind: 'link' as const, target })),
);
const layoutArb = fc.tuple(...SLOTS.map(() => slotArb));
const pathArb = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 6 }))
  .map(([absolute, segments]) => (absolute ? '/' : '') + segments.join('/'));

let base: string;
let counter = 0;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'helios-ws-fuzz-')));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Case {
  readonly dir: string;
  readonly root: string;
  readonly outside: string;
}

function build(layout: readonly Slot[]): Case {
  const dir = join(base, String(counter++));
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  mkdirSync(root, { recursive: true });
  mkdirSync(join(outside, 'dir'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  writeFileSync(join(outside, 'dir', 'secret.txt'), SECRET);
  SLOTS.forEach((slot, index) => {
    const at = join(root, slot);
    const spec = layout[index];
    try {
      if (!lstatSync(dirname(at)).isDirectory()) return; // the parent is a file or a link: stays missing
      if (spec?.kind === 'file') writeFileSync(at, `inside ${slot}`);
      if (spec?.kind === 'dir') mkdirSync(at);
      if (spec?.kind === 'link') {
        symlinkSync(spec.target.replace(OUTSIDE_ABS, outside).replace(ROOT_ABS, root), at);
      }
    } catch {
      // The parent is missing or unreachable in this layout: the slot stays missing.
    }
  });
  return { dir, root, outside };
}

function snapshot(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return `${path}:${entry.isFile() ? readFileSync(path, 'utf8') : entry.isDirectory() ? 'dir' : 'other'}`;
    })
    .sort()
    .join('\n');
}

/** Resolves `promise`, counting a WorkspacePathError as a refusal; anything else fails the case. */
async function attempt<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof WorkspacePathError) return undefined;
    throw error;
  }
}

function realInside(root: string, path: string): boolean {
  try {
    return isInside(root, realpathSync(path));
  } catch {
    return true; // does not exist (nothing was reached through it)
  }
}

async function checkCase(layout: readonly Slot[], path: string, trusted: boolean): Promise<void> {
  const c = build(layout);
  const outsideBefore = snapshot(c.outside);
  const ws = new WorkspaceRoot(c.root, { trusted });
  const resolved = await attempt(ws.resolve(path));
  if (resolved !== undefined) {
    expect(isInside(c.root, resolved), `${path} resolved to ${resolved}`).toBe(true);
    expect(realInside(c.root, resolved), `${path} really is ${resolved}`).toBe(true);
  }
  const read = await attempt(ws.readFile(path, { maxBytes: 1024 }));
  expect(read?.toString()).not.toBe(SECRET);
  if (await attempt(ws.writeFile(path, 'written').then(() => true))) {
    expect(realInside(c.root, resolved ?? ''), `${path} written outside`).toBe(true);
  }
  for await (const entry of ws.walk('.')) expect(entry.path).not.toContain('..');
  expect(snapshot(c.outside)).toBe(outsideBefore);
  expect(readdirSync(c.dir).sort()).toEqual(['outside', 'root']);
  rmSync(c.dir, { recursive: true, force: true });
}

describe('jail fuzz', () => {
  it(`strict mode: ${RUNS} random paths and layouts, zero escapes`, async () => {
    await fc.assert(
      fc.asyncProperty(layoutArb, pathArb, (layout, path) => checkCase(layout, path, false)),
      { numRuns: RUNS },
    );
  }, 300_000);

  it('trusted mode (no concurrent writer): 1000 random paths and layouts, zero escapes', async () => {
    await fc.assert(
      fc.asyncProperty(layoutArb, pathArb, (layout, path) => checkCase(layout, path, true)),
      { numRuns: 1000 },
    );
  }, 120_000);
});
