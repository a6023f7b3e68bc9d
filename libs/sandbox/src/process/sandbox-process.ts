/**
 * Starts one sandbox child: `node` running the child program, with nothing of this process's — an empty
 * environment (but the reaper's marker, below), no inherited execArgv or NODE_OPTIONS — as the leader
 * of its own process group and session, in a private 0700 scratch directory, stdin closed, stdout and
 * stderr piped (captured, never parsed), and fd 3 an anonymous socketpair: the host channel, which no
 * other process can open. Node's permission
 * model is on as belt and braces (reads only of the child's code, no writes, no child processes, no
 * workers, no native addons), the V8 heap is capped, and code generation from strings is off in Node's
 * own realm. With bubblewrap the whole of it runs inside the OS layer.
 *
 * `kill` ends the child and everything it started, waits for its exit and removes the scratch
 * directory. With bubblewrap, SIGKILL to bwrap's process group does it: the pid namespace ends
 * everything inside. Without, the child's environment carries a random marker (the only variable it
 * gets; not a secret), and @helios/core's /proc reaper kills the child, its process group and session,
 * its descendants and every process still carrying the marker — also a `setsid` daemon that code past
 * the engine (and past Node's permission model) might have left reparented to init. At host exit, which
 * cannot wait for a /proc scan, the process group alone is killed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Duplex, type Readable } from 'node:stream';
import { type CallProcesses, reapCall, startTimeOf } from '@helios/core';
import { bubblewrapArgs, type OsLayer } from './bubblewrap.js';
import { type ChildProgram } from './child-program.js';
import { killGroup, liveChildren } from './live-children.js';

export interface LaunchSettings {
  readonly program: ChildProgram;
  readonly osLayer: OsLayer;
  /** The child's V8 heap cap (the engine's own heap is the WASM memory, capped separately). */
  readonly maxOldSpaceMb: number;
}

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The variable that marks a sandbox's processes when no pid namespace holds them. */
export const SANDBOX_MARKER_ENV = 'HELIOS_SANDBOX';
const DIAGNOSTIC_CHARS = 8_192;
const EXIT_WAIT_MS = 5_000;

export class SandboxProcess {
  readonly pid: number;
  readonly channel: Duplex;
  /** Settles when the child has exited. */
  readonly exited: Promise<ChildExit>;
  readonly #scratch: string;
  readonly #untrack: () => void;
  /** What the reaper needs to find the child's processes; none under bubblewrap. */
  readonly #processes: CallProcesses | undefined;
  #diagnostics = '';
  #exit: ChildExit | undefined;

  private constructor(child: ChildProcess & { pid: number }, scratch: string, marker: string | undefined) {
    this.pid = child.pid;
    this.channel = child.stdio[3] as Duplex;
    this.#scratch = scratch;
    this.#processes =
      marker === undefined
        ? undefined
        : {
            rootPid: child.pid,
            marker: `${SANDBOX_MARKER_ENV}=${marker}`,
            startedFrom: startTimeOf('/proc', child.pid) ?? 0,
            rootAlive: () => this.alive,
          };
    for (const stream of [child.stdout, child.stderr] as Readable[]) {
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        this.#diagnostics = (this.#diagnostics + text).slice(-DIAGNOSTIC_CHARS);
      });
    }
    this.channel.on('error', () => undefined); // a write after the child died; the exit says why
    // At host exit: kill, and remove the scratch directory (synchronously: nothing async runs then).
    this.#untrack = liveChildren.track(this.pid, () => {
      killGroup(this.pid);
      rmSync(scratch, { recursive: true, force: true });
    });
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        this.#untrack();
        resolve(this.#exit);
      });
    });
  }

  static async launch(settings: LaunchSettings): Promise<SandboxProcess> {
    const scratch = await mkdtemp(join(tmpdir(), 'helios-sandbox-')); // mode 0700
    const [command, args] = commandLine(settings, scratch);
    const marker = settings.osLayer.type === 'none' ? randomUUID() : undefined;
    const child = spawn(command, args, {
      cwd: scratch,
      env: marker === undefined ? {} : { [SANDBOX_MARKER_ENV]: marker },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    if (child.pid === undefined) {
      const error = await new Promise<Error>((resolve) => child.once('error', resolve));
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
    return new SandboxProcess(child as ChildProcess & { pid: number }, scratch, marker);
  }

  get alive(): boolean {
    return this.#exit === undefined;
  }

  /** The last few thousand characters the child wrote to stdout and stderr (Node's own messages). */
  get diagnostics(): string {
    return this.#diagnostics.trim();
  }

  /** Kills the child and all it started, waits for its exit (bounded), removes the scratch directory. */
  async kill(): Promise<void> {
    if (this.#processes !== undefined) await reapCall(this.#processes);
    else if (this.alive) killGroup(this.pid);
    this.channel.destroy();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS)));
    await Promise.race([this.exited, gaveUp]);
    clearTimeout(timer);
    await rm(this.#scratch, { recursive: true, force: true });
  }
}

/**
 * QuickJS runs as WebAssembly, which V8 compiles lazily with its baseline compiler (Liftoff) and, by
 * default, recompiles with its optimizing one once a function has run enough. For this engine that
 * costs more than it gives: the boot alone (the prelude, the first snippet) triggers ~0.5 s of CPU on
 * background threads at every start, and later recompilations stall a session's executes while they
 * compete for a small machine's cores; a warm trivial execute is fastest on the baseline code. The
 * price is interpreted loops ~30 % slower than optimized code would run them.
 */
const WASM_BASELINE_ONLY = ['--no-wasm-dynamic-tiering', '--no-wasm-tier-up'];

function commandLine(settings: LaunchSettings, scratch: string): [string, string[]] {
  const { program, osLayer } = settings;
  const node = [
    process.execPath,
    `--max-old-space-size=${settings.maxOldSpaceMb}`,
    ...WASM_BASELINE_ONLY,
    '--no-warnings',
    '--disallow-code-generation-from-strings',
    '--experimental-permission',
    ...program.readPaths.map((path) => `--allow-fs-read=${path}/*`),
    program.entry,
    ...program.args,
  ];
  if (osLayer.type === 'none') return [node[0] as string, node.slice(1)];
  return [osLayer.binary, bubblewrapArgs({ readOnly: program.readPaths, scratch }, node)];
}
