/**
 * The sandbox child's entry: `node child-main.js`, spawned by the host with fd 3 as its channel. It
 * boots one engine from the host's `boot` frame, warms it up, says it is ready, then serves `execute`
 * frames one at a time until the channel closes. A snippet's host-function call blocks here until the
 * host answers. The child exits when the host is gone (end of channel, or its parent changed).
 *
 * Runs only inside the child process, so it is left out of the host's coverage; what it glues together
 * (engine, analysis, output, channel) is tested in-process.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Engine, guestError } from './engine.js';
import { FdLines } from './fd-lines.js';
import { OutputBuffer } from './output-buffer.js';
import {
  BOOT_ID,
  type BootParams,
  cutValue,
  type ExecuteOutcome,
  type ExecuteParams,
  JSONRPC,
  type OutputStream,
} from './protocol.js';
import { analyseSnippet } from './snippet-analysis.js';

const CHANNEL_FD = 3;
const PARENT_POLL_MS = 100;

interface Frame {
  readonly id?: string;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly message?: unknown };
}

const channel = new FdLines(CHANNEL_FD);
const send = (frame: object): void => channel.writeLine(JSON.stringify({ jsonrpc: JSONRPC, ...frame }));
const parentAtStart = process.ppid;
let lastPoll = 0;
let parentGone = false;
let current: { id: string; output: OutputBuffer; calls: number } | undefined;

/** True once the host process is gone (this child was re-parented); polled at most every 100 ms. */
function hostGone(): boolean {
  const now = Date.now();
  if (now - lastPoll >= PARENT_POLL_MS) {
    lastPoll = now;
    parentGone ||= process.ppid !== parentAtStart;
  }
  return parentGone;
}

function readFrame(): Frame {
  const line = channel.readLine();
  if (line === undefined) process.exit(0); // the host closed the channel: nothing more to do
  return JSON.parse(line) as Frame;
}

/** A snippet's host-function call: one request, then block until the host's answer to it. */
function callHost(name: string, argsJson: string): string {
  if (current === undefined)
    throw guestError(`${name}: host functions can be called only while a snippet runs`);
  const id = `sub-${++current.calls}`;
  send({ id, method: 'call', params: { exec: current.id, name, args: JSON.parse(argsJson) as unknown } });
  const answer = readFrame();
  if (answer.id !== id) throw guestError(`the host answered ${String(answer.id)} to call ${id}`);
  if (answer.error !== undefined) throw guestError(String(answer.error.message));
  return JSON.stringify(answer.result ?? null);
}

function write(stream: OutputStream, text: string): void {
  current?.output.write(stream, text);
}

async function execute(id: string, params: ExecuteParams, engine: Engine, boot: BootParams): Promise<void> {
  const output = new OutputBuffer((stream, text) =>
    send({ method: 'output', params: { exec: id, stream, text } }),
  );
  current = { id, output, calls: 0 };
  let outcome: ExecuteOutcome;
  try {
    const analysis = analyseSnippet(params.code, params.language, boot.policy);
    if (analysis.type === 'Refused') {
      output.write('stderr', `${analysis.error}\n`);
      outcome = { exitCode: 1, timedOut: false, discarded: output.discarded };
    } else {
      const result = await engine.run(analysis.code, params.timeoutMs, analysis.topLevelAwait);
      for (const line of result.rejections) output.write('stderr', `${line}\n`);
      if (result.type === 'Failed') output.write('stderr', `${result.error}\n`);
      outcome = {
        exitCode: result.type === 'Completed' ? 0 : 1,
        timedOut: result.type === 'Failed' && result.timedOut,
        ...(result.type === 'Completed' && result.value !== undefined
          ? { value: cutValue(result.value) }
          : {}),
        discarded: output.discarded,
      };
    }
  } finally {
    current = undefined;
  }
  output.flush();
  send({
    id,
    result: { ...outcome, discarded: output.discarded, ...(engine.jobsLeft ? { jobsLeft: true } : {}) },
  });
}

async function main(): Promise<void> {
  const boot = readFrame();
  if (boot.method !== 'boot' || boot.id !== BOOT_ID) throw new Error('the first frame must be boot');
  const params = boot.params as BootParams;
  const wasmPath = createRequire(import.meta.url).resolve('quickjs-wasi/quickjs.wasm');
  const engine = await Engine.create({
    wasm: readFileSync(wasmPath),
    memoryLimitBytes: params.memoryLimitBytes,
    maxStackBytes: params.maxStackBytes,
    hostFunctions: params.hostFunctions,
    write,
    callHost,
    shouldStop: hostGone,
  });
  await engine.warmUp(params.warmUpMs);
  send({
    id: BOOT_ID,
    result: { ready: true, engine: `quickjs-ng ${engine.versions['quickjs'] ?? ''}`.trim() },
  });
  for (;;) {
    const frame = readFrame();
    if (frame.method === 'execute' && typeof frame.id === 'string') {
      await execute(frame.id, frame.params as ExecuteParams, engine, params);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox child failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
