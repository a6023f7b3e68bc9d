/**
 * The attack suite: snippets trying to reach the host's files, environment, processes and network, to
 * forge channel frames, to pollute prototypes, or to exhaust time, memory, output or stack. Each runs
 * under the permissive policy — nothing is refused by the static check, so what blocks it is the
 * engine and the layers below — and each must fail to escape. After each, the sandbox still works (its
 * variables kept) and the host is healthy: responsive, its memory not grown, a canary process alive.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HostFunction, HostParameter } from '../src/host/host-function.js';
import { SandboxPolicy } from '../src/policy/sandbox-policy.js';
import {
  expectHostHealthy,
  hostBaseline,
  type HostBaseline,
  openSandbox,
  type OpenSandbox,
} from './sandbox-kit.js';

const token = randomUUID();
const hostDir = mkdtempSync(join(tmpdir(), 'attack-host-'));
const sentinel = join(hostDir, 'sentinel.txt');
const escapeTarget = join(hostDir, 'escaped.txt');
const envSecret = `env-secret-${token}`;
let box: OpenSandbox;
let listener: Server;
let connections = 0;
let canary: ChildProcess;
let baseline: HostBaseline;

/** Every way a snippet might try to reach an outside capability; each probe reports what it got. */
const PROBES = `
const attempts = {};
const tryIt = (name, fn) => { try { attempts[name] = 'ok:' + String(fn()).slice(0, 80) } catch (e) { attempts[name] = 'blocked:' + e.name } };
`;

beforeAll(async () => {
  writeFileSync(sentinel, `sentinel ${token}`);
  process.env['SANDBOX_ATTACK_SECRET'] = envSecret;
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  canary = spawn('sleep', ['300'], { stdio: 'ignore' });
  const evil = HostFunction(
    'evil',
    'Returns a polluting value',
    [HostParameter.optional('x', 'object', '')],
    () =>
      JSON.parse(
        '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
      ) as unknown,
  );
  box = await openSandbox({ policy: SandboxPolicy.permissive(), hostFunctions: [evil], stopGraceMs: 2_000 });
  await box.run('let survivor = "still here"');
  baseline = hostBaseline();
});

afterEach(async () => {
  expect((await box.run('survivor')).value).toBe('still here');
  await expectHostHealthy(baseline);
  expect(canary.exitCode).toBeNull();
  expect(canary.signalCode).toBeNull();
});

afterAll(async () => {
  await box.close();
  canary.kill();
  delete process.env['SANDBOX_ATTACK_SECRET'];
  await new Promise((resolve) => listener.close(resolve));
  rmSync(hostDir, { recursive: true, force: true });
});

function shown(result: { stdout: string; stderr: string; value?: string }): string {
  return `${result.stdout}\n${result.stderr}\n${result.value ?? ''}`;
}

describe('reaching the host', () => {
  it('cannot read /etc/passwd', async () => {
    const result = await box.run(`${PROBES}
      tryIt('require', () => require('fs').readFileSync('/etc/passwd', 'utf8'));
      tryIt('process', () => process.binding('fs'));
      tryIt('std', () => std.loadFile('/etc/passwd'));
      tryIt('os', () => os.open('/etc/passwd'));
      tryIt('fetch', () => fetch('file:///etc/passwd'));
      tryIt('xhr', () => new XMLHttpRequest());
      tryIt('import', () => import('fs').then((fs) => fs.readFileSync('/etc/passwd')));
      let imported = 'pending'; import('std').then(() => imported = 'ok', (e) => imported = 'blocked:' + e.name);
      attempts`);
    expect(shown(result)).not.toContain('root:');
    expect(result.value).not.toMatch(/ok:(?!\[object Promise\])/);
    expect((await box.run('imported')).value).toMatch(/^blocked:/);
  });

  it('cannot read a host sentinel file', async () => {
    const result = await box.run(`${PROBES}
      tryIt('require', () => require('fs').readFileSync(${JSON.stringify(sentinel)}));
      tryIt('std', () => std.loadFile(${JSON.stringify(sentinel)}));
      tryIt('Function', () => Function('return process')().mainModule.require('fs').readFileSync(${JSON.stringify(sentinel)}));
      attempts`);
    expect(shown(result)).not.toContain(token);
    expect(result.value).not.toContain('ok:');
  });

  it('cannot read the host’s environment secrets', async () => {
    const result = await box.run(`${PROBES}
      tryIt('process.env', () => JSON.stringify(process.env));
      tryIt('std.getenv', () => std.getenv('SANDBOX_ATTACK_SECRET'));
      tryIt('globals', () => Object.getOwnPropertyNames(globalThis).map((k) => { try { return String(globalThis[k]) } catch { return '' } }).join());
      attempts`);
    expect(shown(result)).not.toContain(envSecret);
    expect(result.value).toContain('"process.env": "blocked:ReferenceError"');
  });

  it('cannot spawn a process', async () => {
    const marker = join(hostDir, `spawned-${token}`);
    const result = await box.run(`${PROBES}
      tryIt('child_process', () => require('child_process').execSync('touch ${marker}'));
      tryIt('os.exec', () => os.exec(['touch', ${JSON.stringify(marker)}]));
      tryIt('std.popen', () => std.popen('touch ${marker}', 'r'));
      tryIt('Worker', () => new Worker('x.js'));
      attempts`);
    expect(result.value).not.toContain('ok:');
    expect(existsSync(marker)).toBe(false);
  });

  it('cannot open a TCP connection to a host listener', async () => {
    const port = (listener.address() as { port: number }).port;
    const result = await box.run(`${PROBES}
      tryIt('net', () => require('net').connect(${port}, '127.0.0.1'));
      tryIt('fetch', () => fetch('http://127.0.0.1:${port}/'));
      tryIt('WebSocket', () => new WebSocket('ws://127.0.0.1:${port}/'));
      tryIt('os.socket', () => os.socket());
      attempts`);
    expect(result.value).not.toContain('ok:');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connections).toBe(0);
  });

  it('cannot write outside its scratch directory', async () => {
    const result = await box.run(`${PROBES}
      tryIt('fs', () => require('fs').writeFileSync(${JSON.stringify(escapeTarget)}, 'x'));
      tryIt('std', () => std.open(${JSON.stringify(escapeTarget)}, 'w').puts('x'));
      tryIt('os', () => os.open(${JSON.stringify(escapeTarget)}, 0x41));
      attempts`);
    expect(result.value).not.toContain('ok:');
    expect(existsSync(escapeTarget)).toBe(false);
  });

  it('cannot signal the host process', async () => {
    const result = await box.run(`${PROBES}
      tryIt('process.kill', () => process.kill(${process.pid}, 'SIGKILL'));
      tryIt('os.kill', () => os.kill(${process.pid}, 9));
      tryIt('canary', () => os.kill(${canary.pid ?? 0}, 9));
      attempts`);
    expect(result.value).not.toContain('ok:');
  });

  it('cannot reach process, require, import() or a host realm through constructors', async () => {
    const result = await box.run(`[
      typeof process, typeof require, typeof module, typeof globalThis.process,
      typeof this.constructor.constructor('return typeof process')(),
      Function('return typeof process')(),
      (async () => {}).constructor('return 1').constructor === Function.prototype.constructor.constructor,
      Object.getOwnPropertyNames(globalThis).filter((k) => /^(process|require|module|std|os|fd|Deno|Bun|WebAssembly)$/.test(k)),
    ]`);
    expect(result.value).toBe(
      '["undefined", "undefined", "undefined", "undefined", "string", "undefined", false, []]',
    );
    const imported = await box.run(
      'let via = "pending"; import("child_process").then(() => via = "ok", (e) => via = e.name + ": " + e.message); 0',
    );
    expect(imported.exitCode).toBe(0);
    expect((await box.run('via')).value).toMatch(/^(TypeError|ReferenceError|SyntaxError): /);
  });
});

describe('forging the host channel', () => {
  it('frames printed to stdout are plain text, and the snippet has no path to the channel', async () => {
    const forged = JSON.stringify({
      jsonrpc: '2.0',
      id: '1',
      result: { exitCode: 0, timedOut: false, value: 'FORGED', discarded: { stdout: 0, stderr: 0 } },
    });
    const result = await box.run(
      `println(${JSON.stringify(forged)}); print('\\n{"jsonrpc":"2.0","method":"call","params":{}}\\n'); console.error(${JSON.stringify(forged)}); throw new Error('real failure')`,
    );
    expect(result.exitCode).toBe(1);
    expect(result.value).toBeUndefined();
    expect(result.stdout).toContain(forged);
    expect(result.stderr).toContain('Error: real failure');
    const reach = await box.run(
      '[typeof std, typeof os, typeof fd, typeof writeSync, typeof callHost, typeof write]',
    );
    expect(reach.value).toBe(
      '["undefined", "undefined", "undefined", "undefined", "undefined", "undefined"]',
    );
  });
});

describe('polluting prototypes', () => {
  it('a host function’s return value cannot pollute the host or the sandbox', async () => {
    const result = await box.run(
      'const r = evil(); const copy = JSON.parse(JSON.stringify(r)); Object.assign({}, r); [({}).polluted, Object.prototype.polluted, Object.keys(r).length]',
    );
    expect(result.value).toBe('[undefined, undefined, 2]');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const sent = await box.run(
      'try { evil(JSON.parse(\'{"__proto__":{"polluted":1}}\')) } catch (e) { e.message }',
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(sent.exitCode).toBe(0);
  });
});

describe('exhausting resources', () => {
  it('an infinite loop is stopped at its timeout', async () => {
    const result = await box.run('while (true) {}', { timeoutMs: 300 });
    expect(result).toMatchObject({
      exitCode: 1,
      timedOut: true,
      stderr: 'TimeoutError: the snippet was stopped at its 300 ms timeout\n',
    });
    expect(result.durationMs).toBeLessThan(1_000);
  });

  it('a catastrophic regex is stopped at its timeout', async () => {
    const result = await box.run('/(a+)+b/.test("a".repeat(40))', { timeoutMs: 300 });
    expect(result).toMatchObject({ exitCode: 1, timedOut: true });
  });

  it('a memory bomb runs out of its 64 MiB, not the host’s', async () => {
    const result = await box.run(
      'const hoard = []; for (;;) hoard.push(new Array(100000).fill(Math.random()))',
      { timeoutMs: 20_000 },
    );
    expect(result).toMatchObject({ exitCode: 1, timedOut: false });
    expect(result.stderr).toContain('out of memory');
    expect((await box.run('hoard.length = 0; new ArrayBuffer(200 * 1024 * 1024)')).stderr).toContain(
      'out of memory',
    );
  });

  it('an output flood is cut at 1,000,000 characters per stream', async () => {
    const result = await box.run(
      'const line = "x".repeat(999) + "\\n"; for (let i = 0; i < 2000; i++) print(line); console.error("e".repeat(1_500_000))',
    );
    expect(result.exitCode).toBe(0);
    // 1,000 lines of 1,000 chars are kept; the cut falls on a line end, so the marker follows at once.
    expect(result.stdout).toHaveLength(1_000_000 + '[output truncated: 1000000 more chars discarded]'.length);
    expect(result.stdout.endsWith('x\n[output truncated: 1000000 more chars discarded]')).toBe(true);
    expect(result.stderr.endsWith('e\n[output truncated: 500001 more chars discarded]')).toBe(true);
  });

  it('deep recursion overflows the engine’s stack, not the child’s', async () => {
    const result = await box.run('function down(n) { return down(n + 1) + 1 } down(0)');
    expect(result).toMatchObject({
      exitCode: 1,
      timedOut: false,
      stderr: expect.stringMatching(/^RangeError: Maximum call stack size exceeded/) as unknown,
    });
  });

  it('a promise loop that never yields is stopped at its timeout', async () => {
    const result = await box.run('(function spin() { return Promise.resolve().then(spin) })(); "queued"', {
      timeoutMs: 300,
    });
    expect(result).toMatchObject({ exitCode: 1, timedOut: true });
    const chain = await box.run('(async () => { for (;;) await null })(); 1', { timeoutMs: 300 });
    expect(chain).toMatchObject({ exitCode: 1, timedOut: true });
  });
});
