/**
 * The JShell anchor (Java 17's jshell, "local" execution engine): cold start from process spawn to the
 * first `1+1`, warm `1+1`, a 1e6-iteration loop, and the JVM's RSS once warm. JShellBench.java is
 * compiled once into a temporary directory; undefined when javac or java is missing.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { median } from '../median.ts';
import { treeRssBytes } from './process-tree.ts';

export interface JShellFigures {
  readonly coldMs: number;
  readonly warmMs: number;
  readonly loopMs: number;
  readonly rssBytes: number;
}

interface Run {
  readonly coldMs: number;
  readonly warm?: { warmMs: number; loopMs: number };
  readonly rssBytes: number;
}

export function jshellAvailable(): string | undefined {
  try {
    execFileSync('javac', ['-version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'javac (a JDK 17+) is not installed; the JShell side cannot run';
  }
}

function runOnce(classes: string, measureWarm: boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('java', ['-cp', classes, 'JShellBench'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let coldMs = 0;
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line === 'READY') {
        coldMs = Number(process.hrtime.bigint() - started) / 1e6;
        if (!measureWarm) {
          const rssBytes = treeRssBytes(child.pid as number);
          child.kill('SIGKILL');
          resolve({ coldMs, rssBytes });
        }
        return;
      }
      const warm = JSON.parse(line) as { warmMs: number; loopMs: number };
      const rssBytes = treeRssBytes(child.pid as number);
      child.stdin.end('quit\n');
      resolve({ coldMs, warm, rssBytes });
    });
    child.on('error', reject);
  });
}

export async function measureJShell(coldRounds: number): Promise<JShellFigures> {
  const classes = mkdtempSync(join(tmpdir(), 'jshell-bench-'));
  try {
    execFileSync('javac', ['-d', classes, join(import.meta.dirname, 'JShellBench.java')], {
      stdio: 'inherit',
    });
    const colds: number[] = [];
    for (let i = 0; i < coldRounds; i += 1) colds.push((await runOnce(classes, false)).coldMs);
    const warm = await runOnce(classes, true);
    return {
      coldMs: median(colds),
      warmMs: warm.warm?.warmMs ?? Number.NaN,
      loopMs: warm.warm?.loopMs ?? Number.NaN,
      rssBytes: warm.rssBytes,
    };
  } finally {
    rmSync(classes, { recursive: true, force: true });
  }
}
