/**
 * The OS layer (bubblewrap): what it blocks that the process layer alone does not. The child here is
 * the rogue one — Node code running where an escaped engine would be — so these show what an attacker
 * past the engine would still meet. Skipped, with the reason printed, where bubblewrap cannot run.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  JavaScriptExecutionProvider,
  OsSandboxUnavailableError,
} from '../src/javascript/javascript-execution-provider.js';
import { bubblewrapArgs, findBubblewrap, resolveOsLayer } from '../src/process/bubblewrap.js';
import { killGroup } from '../src/process/live-children.js';
import { rogue, startRogue } from './rogue-kit.js';

const layer = resolveOsLayer('auto', findBubblewrap());
const reason = layer.type === 'none' ? layer.reason : '';
if (reason !== '') console.log(`OS-layer tests skipped: ${reason}`);

let listener: Server;
let connections = 0;
let port = 0;
beforeAll(async () => {
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => listener.close(resolve)));

async function probe(withLayer: boolean): Promise<Record<string, string>> {
  const sandbox = await startRogue(withLayer ? { osLayer: layer } : {});
  try {
    const outcome = await rogue(sandbox, `probe ${port} ${process.pid}`, 5_000);
    return JSON.parse(outcome.value ?? '{}') as Record<string, string>;
  } finally {
    await sandbox.end('test over');
  }
}

describe.skipIf(reason !== '')('with bubblewrap', () => {
  it('code past the engine reaches no host listener, no host process and no environment', async () => {
    const before = connections;
    const seen = await probe(true);
    expect(seen['tcp']).toMatch(/^blocked: (ENETUNREACH|ECONNREFUSED|EACCES)/);
    expect(seen['signal host']).toBe('blocked: ESRCH');
    expect(seen['env']).toBe('ok: PWD'); // bubblewrap's --chdir sets PWD; nothing of the host's
    expect(connections).toBe(before);
  });

  it('without it, the same code reaches the loopback listener and signals the host: the layer is what blocks them', async () => {
    const before = connections;
    const seen = await probe(false);
    expect(seen['tcp']).toBe('ok: connected');
    expect(seen['signal host']).toBe('ok: true');
    expect(connections).toBe(before + 1);
  });

  it('its pid namespace takes every descendant down, setsid daemons included', async () => {
    const tag = `${Math.floor(Math.random() * 1e6)}`;
    const command = ['/bin/sh', '-c', `setsid sleep 301.${tag} & sleep 302.${tag} & sleep 303.${tag}`];
    const child = spawn(
      layer.type === 'bubblewrap' ? layer.binary : 'false',
      bubblewrapArgs({ readOnly: [], scratch: undefined }, command),
      {
        detached: true,
        stdio: 'ignore',
        env: {},
      },
    );
    const tagged = () => processesWith(tag);
    await expect.poll(tagged, { timeout: 5_000 }).toHaveLength(3);
    killGroup(child.pid as number);
    await expect.poll(tagged, { timeout: 5_000 }).toEqual([]);
  });

  it('runs a real sandbox under it, and says so', async () => {
    const provider = new JavaScriptExecutionProvider({ osSandbox: 'required', warmUpMs: 0 });
    expect(provider.osLayer.type).toBe('bubblewrap');
    expect(provider.describe()).toContain('an OS sandbox (bubblewrap)');
    await provider.close();
  });
});

describe('without a working bubblewrap', () => {
  it('`required` refuses to construct; `auto` says in the tool description that there is no OS sandbox', async () => {
    const missing = `/nonexistent/bwrap-${randomUUID()}`;
    expect(() => new JavaScriptExecutionProvider({ osSandbox: 'required', bubblewrapPath: missing })).toThrow(
      OsSandboxUnavailableError,
    );
    const auto = new JavaScriptExecutionProvider({ osSandbox: 'auto', bubblewrapPath: missing });
    expect(auto.describe()).toMatch(/NO OS sandbox: bubblewrap is installed but cannot run here/);
    const off = new JavaScriptExecutionProvider({ osSandbox: 'off' });
    expect(off.describe()).toContain('NO OS sandbox: the OS layer is turned off (osSandbox: off)');
    await Promise.all([auto.close(), off.close()]);
  });
});

describe('without bubblewrap, the /proc reaper', () => {
  it('ends what the sandbox left behind at its end, a setsid daemon carrying its marker included', async () => {
    const sandbox = await startRogue(); // no OS layer
    const environ = readFileSync(`/proc/${sandbox.pid}/environ`, 'latin1').split('\0').filter(Boolean);
    expect(environ).toEqual([expect.stringMatching(/^HELIOS_SANDBOX=[0-9a-f-]{36}$/)]);
    // What code past the engine and Node's permission model could leave: a process in a session of its
    // own, reparented away from the child, with the environment it inherited.
    const tag = `${Math.floor(Math.random() * 1e6)}`;
    const [name, value] = (environ[0] as string).split('=') as [string, string];
    spawn('setsid', ['sleep', `304.${tag}`], {
      detached: true,
      stdio: 'ignore',
      env: { [name]: value },
    }).unref();
    await expect.poll(() => processesWith(tag), { timeout: 5_000 }).toHaveLength(1);
    await sandbox.end('test over');
    await expect.poll(() => processesWith(tag), { timeout: 5_000 }).toEqual([]);
  });
});

/** Live (not zombie) processes whose command line holds `tag`. */
function processesWith(tag: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (cmdline.includes(`.${tag}`) && cmdline.startsWith('sleep') && !/\) [ZX] /.test(stat))
        found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
