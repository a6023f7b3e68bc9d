import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretRegistry } from '../secrets/secret-registry.js';
import { ToolResult } from '../tool/tool-result.js';
import { MAX_GRANT_ARGS, MAX_GRANT_ARGV_BYTES } from './argv-check.js';
import { CommandGrant } from './command-grant.js';
import { callContext } from './grant-test-kit.js';

const TOKEN = 'tok-secret-4242';
let scratch: string;
let registry: SecretRegistry;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'grant-call-'));
  registry = new SecretRegistry();
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
  delete process.env['HELIOS_TEST_LEAK'];
});

const shell = () => CommandGrant.builder('sh').withSecretRegistry(registry).withEnv('TOKEN', TOKEN);
/** A grant of touch: a refused call leaves no file behind, which proves no process started. */
const touch = () => CommandGrant.builder('touch').withSecretRegistry(registry).withEnv('TOKEN', TOKEN);

describe('CommandGrant environment', () => {
  it('gives the child PATH, the grant’s variables and the call marker, nothing of this process', async () => {
    process.env['HELIOS_TEST_LEAK'] = 'leak-value-123';
    const tool = CommandGrant.builder('env')
      .withSecretRegistry(registry)
      .withEnv('GRANT_TOKEN', TOKEN)
      .build();
    const result = await tool.execute({ args: [] }, callContext(registry));
    expect(result.type).toBe('Success');
    const [header, ...lines] = result.output.trimEnd().split('\n');
    expect(header).toBe('[env exit 0]');
    expect(lines.map((line) => line.split('=')[0]).sort()).toEqual([
      'GRANT_TOKEN',
      'HELIOS_GRANT_CALL',
      'PATH',
    ]);
    expect(lines).toContain('GRANT_TOKEN=<redacted:GRANT_TOKEN>');
    expect(lines).toContain('PATH=/usr/local/bin:/usr/bin:/bin');
    expect(result.output).not.toContain('leak-value-123');
    expect(result.output).not.toContain(TOKEN);
  });

  it('sets the child PATH from withPath', async () => {
    const tool = CommandGrant.builder('sh').withSecretRegistry(registry).withPath('/bin').build();
    const result = await tool.execute({ args: ['-c', 'echo "$PATH"'] }, callContext(registry));
    expect(result.output).toBe('[sh exit 0]\n/bin\n');
  });
});

describe('CommandGrant refusals', () => {
  it('refuses an argv holding a registered secret, without starting a process', async () => {
    const target = join(scratch, `file-${TOKEN}`);
    const result = await touch()
      .build()
      .execute({ args: ['-c', target] }, callContext(registry));
    expect(result.type).toBe('Failure');
    expect(result.output).toMatch(/^\[touch refused\] argument 1 contains a registered secret value/);
    expect(result.output).not.toContain(TOKEN);
    expect(existsSync(target)).toBe(false);
  });

  it('counts a secret registered after the build', async () => {
    const tool = touch().build();
    registry.register('LATE', 'late-registered-secret');
    const target = join(scratch, 'late-registered-secret');
    const result = await tool.execute({ args: [target] }, callContext(registry));
    expect(result.output).toMatch(/argument 0 contains a registered secret/);
    expect(existsSync(target)).toBe(false);
  });

  it('refuses to run in a session with another registry instance', async () => {
    const target = join(scratch, 'made');
    const tool = touch().build();
    const result = await tool.execute({ args: [target] }, callContext(new SecretRegistry()));
    expect(result.type).toBe('Failure');
    expect(result.output).toMatch(/SecretRegistry is not the one this grant was built with/);
    expect(existsSync(target)).toBe(false);
    expect((await tool.execute({ args: [target] }, callContext(registry))).type).toBe('Success');
    expect(existsSync(target)).toBe(true);
  });

  it('refuses with the validator’s reason, redacted, and runs what it lets through', async () => {
    const seen: (readonly string[])[] = [];
    const tool = touch()
      .withArgValidator((args) => {
        seen.push(args);
        return args[0] === '-d' ? `dates are not allowed (${TOKEN})` : undefined;
      })
      .build();
    const refused = await tool.execute({ args: ['-d', 'now', join(scratch, 'a')] }, callContext(registry));
    expect(refused.output).toBe(
      "[touch refused] refused by the grant's argument validator: dates are not allowed (<redacted:TOKEN>)",
    );
    expect(existsSync(join(scratch, 'a'))).toBe(false);
    expect((await tool.execute({ args: [join(scratch, 'b')] }, callContext(registry))).type).toBe('Success');
    expect(Object.isFrozen(seen[0])).toBe(true);
  });

  it('checks the argument count and size on both sides of each limit', async () => {
    const tool = CommandGrant.builder('true').withSecretRegistry(registry).build();
    const run = (args: string[]) => tool.execute({ args }, callContext(registry));
    expect((await run(Array<string>(MAX_GRANT_ARGS).fill('x'))).type).toBe('Success');
    expect((await run(Array<string>(MAX_GRANT_ARGS + 1).fill('x'))).output).toMatch(
      /too many arguments: 1001/,
    );
    const half = 'y'.repeat(MAX_GRANT_ARGV_BYTES / 2);
    expect((await run([half, half])).type).toBe('Success');
    expect((await run([half, `${half}z`])).output).toMatch(/arguments too long: 131073 bytes/);
    expect((await run(['a', 'b\0c'])).output).toMatch(/argument 1 contains a NUL character/);
  });

  it('refuses arguments that are not strings before anything else', async () => {
    const tool = touch().build();
    const result = await tool.execute({ args: ['ok', 7] }, callContext(registry));
    expect(result.output).toMatch(/invalid arguments for tool 'touch'/);
  });

  it('refuses a call beyond the grant’s concurrency at once', async () => {
    const tool = CommandGrant.builder('sleep').withSecretRegistry(registry).withMaxConcurrent(1).build();
    const first = tool.execute({ args: ['0.3'] }, callContext(registry));
    const second = await tool.execute({ args: ['0'] }, callContext(registry));
    expect(second.output).toMatch(/^\[sleep refused\] 1 calls are already running/);
    expect((await first).type).toBe('Success');
    expect((await tool.execute({ args: ['0'] }, callContext(registry))).type).toBe('Success');
  });
});

describe('CommandGrant results', () => {
  it('redacts a secret the command prints', async () => {
    const result = await shell()
      .build()
      .execute({ args: ['-c', 'echo "token=$TOKEN"'] }, callContext(registry));
    expect(result).toEqual(ToolResult.success('[sh exit 0]\ntoken=<redacted:TOKEN>\n'));
  });

  it('redacts with the registry as it is when the command has finished', async () => {
    const tool = CommandGrant.builder('sh').withSecretRegistry(registry).build();
    const args = ['-c', 'sleep 0.2; echo "got $0"', 'learned-meanwhile'];
    const call = tool.execute({ args }, callContext(registry));
    registry.register('LEARNED', 'learned-meanwhile');
    expect((await call).output).toBe('[sh exit 0]\ngot <redacted:LEARNED>\n');
  });

  it('hides stderr by default, saying only its size', async () => {
    const script = 'echo out; echo "err $TOKEN" >&2';
    const result = await shell()
      .build()
      .execute({ args: ['-c', script] }, callContext(registry));
    expect(result.output).toBe('[sh exit 0]\nout\n[stderr hidden: 20 bytes]\n');
  });

  it('shows stderr, redacted, when the grant allows it', async () => {
    const script = 'printf out; echo "err $TOKEN" >&2';
    const result = await shell()
      .withStderrToModel(true)
      .build()
      .execute({ args: ['-c', script] }, callContext(registry));
    expect(result.output).toBe('[sh exit 0]\nout\n[stderr]\nerr <redacted:TOKEN>\n');
  });

  it('says nothing of an empty stderr', async () => {
    const result = await shell()
      .withStderrToModel(true)
      .build()
      .execute({ args: ['-c', ':'] }, callContext(registry));
    expect(result.output).toBe('[sh exit 0]\n');
  });

  it('fails on a non-zero exit and still shows the output', async () => {
    const result = await shell()
      .build()
      .execute({ args: ['-c', 'echo partial; exit 3'] }, callContext(registry));
    expect(result).toEqual(ToolResult.failure('[sh exit 3]\npartial\n'));
  });

  it('fails when a signal ends the command', async () => {
    const result = await shell()
      .build()
      .execute({ args: ['-c', 'kill -TERM $$'] }, callContext(registry));
    expect(result).toEqual(ToolResult.failure('[sh killed by SIGTERM]\n'));
  });

  it('runs each call in a fresh 0700 directory of its own, removed afterwards', async () => {
    const tool = CommandGrant.builder('sh').withSecretRegistry(registry).build();
    const script = 'pwd; stat -c %a .';
    const outputs = [];
    for (const _ of [1, 2])
      outputs.push((await tool.execute({ args: ['-c', script] }, callContext(registry))).output);
    const [first, second] = outputs.map((output) => output.split('\n').slice(1, 3));
    expect(first?.[0]).toMatch(new RegExp(`^${tmpdir()}/helios-grant-`));
    expect(first?.[0]).not.toBe(second?.[0]);
    expect([first?.[1], second?.[1]]).toEqual(['700', '700']);
    expect(existsSync(first?.[0] as string) || existsSync(second?.[0] as string)).toBe(false);
  });

  it('fails the call when the pinned binary is gone, without searching again', async () => {
    const copy = join(scratch, 'echo');
    copyFileSync('/bin/echo', copy);
    const tool = CommandGrant.builder(copy).withSecretRegistry(registry).build();
    unlinkSync(copy);
    const result = await tool.execute({ args: ['hi'] }, callContext(registry));
    expect(result.type).toBe('Failure');
    expect(result.output).toMatch(/^Tool execution failed: spawn .* ENOENT/);
  });

  it('reads the call’s output files only through its directory, which is gone afterwards', async () => {
    const tool = CommandGrant.builder('sh').withSecretRegistry(registry).build();
    const result = await tool.execute(
      { args: ['-c', 'echo data > f; cat f; pwd > "$0"', join(scratch, 'where')] },
      callContext(registry),
    );
    expect(result.output).toBe('[sh exit 0]\ndata\n');
    const where = readFileSync(join(scratch, 'where'), 'utf8').trim();
    expect(() => statSync(where)).toThrow(/ENOENT/);
  });
});
