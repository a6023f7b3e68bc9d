/**
 * The sandbox child's entry: `node <child bundle> <engine wasm>`, spawned by the host with fd 3 as its
 * channel. It starts compiling the engine at once, boots it from the host's `boot` frame, says it is
 * ready, then serves `execute` frames one at a time until the channel closes. A snippet's host-function
 * call blocks here until the host answers. The child exits when the host is gone (end of channel, or
 * its parent changed).
 *
 * The common execute (no top-level await) runs synchronously from frame to answer: the loop never
 * yields to the event loop or the microtask queue in between, which is most of a warm execute's cost.
 *
 * Runs only inside the child process, so it is left out of the host's coverage; what it glues together
 * (engine, analysis, output, channel) is tested in-process.
 */
import { readFileSync } from 'node:fs';
import { type CompiledWasm, Engine, guestError, type RunResult } from './engine.js';
import { FdLines } from './fd-lines.js';
import { OutputBuffer } from './output-buffer.js';
import {
  BOOT_ID,
  type BootParams,
  cutValue,
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

/** Node's WebAssembly global, which the project's type libraries do not declare. */
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> };
};
/** Compiled while Node finishes loading and the boot frame arrives (the host passes the path). */
const compiled = wasm.compile(readFileSync(process.argv[2] ?? 'quickjs.wasm'));
const channel = new FdLines(CHANNEL_FD);
const send = (frame: object): void => channel.writeLine(JSON.stringify(frame));
const output = new OutputBuffer((stream, text) =>
  send({ jsonrpc: JSONRPC, method: 'output', params: { exec: current?.id, stream, text } }),
);
const parentAtStart = process.ppid;
let lastPoll = 0;
let parentGone = false;
let current: { id: string; calls: number } | undefined;

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
  send({
    jsonrpc: JSONRPC,
    id,
    method: 'call',
    params: { exec: current.id, name, args: JSON.parse(argsJson) as unknown },
  });
  const answer = readFrame();
  if (answer.id !== id) throw guestError(`the host answered ${String(answer.id)} to call ${id}`);
  if (answer.error !== undefined) throw guestError(String(answer.error.message));
  return JSON.stringify(answer.result ?? null);
}

function write(stream: OutputStream, text: string): void {
  if (current !== undefined) output.write(stream, text);
}

/**
 * Runs one snippet and answers it. Only a snippet with top-level await gives back a promise; every
 * other one is answered before this returns.
 */
function execute(
  id: string,
  params: ExecuteParams,
  engine: Engine,
  boot: BootParams,
): Promise<void> | undefined {
  output.reset();
  current = { id, calls: 0 };
  const analysis = analyseSnippet(params.code, params.language, boot.policy);
  const refusal = analysis.type === 'Refused' ? analysis.error : engine.exposeInputs(params.inputs);
  if (refusal !== undefined || analysis.type !== 'Ready') return void answer(id, refusal ?? '', engine);
  if (analysis.topLevelAwait) {
    return engine.run(analysis.code, params.timeoutMs, true).then((run) => answer(id, run, engine));
  }
  return void answer(id, engine.runScript(analysis.code, params.timeoutMs), engine);
}

/** Sends what is left of the output, then the execute's answer (a string: refused before it ran). */
function answer(id: string, run: RunResult | string, engine: Engine): void {
  if (typeof run === 'string') {
    output.write('stderr', `${run}\n`);
  } else {
    for (const line of run.rejections) output.write('stderr', `${line}\n`);
    if (run.type === 'Failed') output.write('stderr', `${run.error}\n`);
  }
  output.flush();
  const completed = typeof run !== 'string' && run.type === 'Completed';
  const result: Record<string, unknown> = {
    exitCode: completed ? 0 : 1,
    timedOut: typeof run !== 'string' && run.type === 'Failed' && run.timedOut,
    discarded: output.discarded,
  };
  if (completed && run.value !== undefined) result['value'] = cutValue(run.value);
  if (engine.jobsLeft) result['jobsLeft'] = true;
  current = undefined;
  send({ jsonrpc: JSONRPC, id, result });
}

async function main(): Promise<void> {
  const boot = readFrame();
  if (boot.method !== 'boot' || boot.id !== BOOT_ID) throw new Error('the first frame must be boot');
  const params = boot.params as BootParams;
  const engine = await Engine.create({
    wasm: await compiled,
    memoryLimitBytes: params.memoryLimitBytes,
    maxStackBytes: params.maxStackBytes,
    hostFunctions: params.hostFunctions,
    ...(params.preludeBytecode === undefined
      ? {}
      : { preludeBytecode: Buffer.from(params.preludeBytecode, 'base64') }),
    write,
    callHost,
    shouldStop: hostGone,
  });
  engine.warmUp(params.warmUpMs);
  send({
    jsonrpc: JSONRPC,
    id: BOOT_ID,
    result: { ready: true, engine: `quickjs-ng ${engine.versions['quickjs'] ?? ''}`.trim() },
  });
  for (;;) {
    const frame = readFrame();
    if (frame.method === 'execute' && typeof frame.id === 'string') {
      const pending = execute(frame.id, frame.params as ExecuteParams, engine, params);
      if (pending !== undefined) await pending;
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox child failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
