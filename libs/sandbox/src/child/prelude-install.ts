/**
 * Installs the prelude in a fresh VM: evaluates its factory (prelude-source.ts, or the bytecode the host
 * compiled from it) and calls it with the
 * two native functions — write to a stream, call the host — and the host functions' shapes. Neither
 * native function gets a global name; what the factory hands back (the renderer and the inputs setter)
 * stays with the engine.
 */
import { type JSValueHandle, type QuickJS } from 'quickjs-wasi';
import { guestError } from './guest-error.js';
import { PRELUDE_SOURCE } from './prelude-source.js';
import { type HostFunctionShape, type OutputStream } from './protocol.js';

export interface PreludeHooks {
  readonly hostFunctions: readonly HostFunctionShape[];
  /** The factory as bytecode of this engine build (compiled by the host from PRELUDE_SOURCE). */
  readonly preludeBytecode?: Uint8Array;
  readonly write: (stream: OutputStream, text: string) => void;
  readonly callHost: (name: string, argsJson: string) => string;
}

export interface Prelude {
  /** Renders a value as print and the completion value show it. */
  readonly show: JSValueHandle;
  /** Exposes one execute's inputs (JSON, or undefined to remove them); answers a name already taken. */
  readonly setInputs: JSValueHandle;
}

export function installPrelude(vm: QuickJS, options: PreludeHooks): Prelude {
  const write = vm.newFunction('write', (stream, text) => {
    if (stream !== undefined && text?.isString === true)
      options.write(stream.toNumber() === 1 ? 'stderr' : 'stdout', text.toString());
    return vm.undefined;
  });
  const callHost = vm.newFunction('callHost', (name, argsJson) => {
    if (name?.isString !== true || argsJson?.isString !== true)
      throw guestError('host call needs a name and JSON arguments');
    let answer: string;
    try {
      answer = options.callHost(name.toString(), argsJson.toString());
    } catch (error) {
      // Whatever failed on this side reaches the snippet as a message only, never with a host stack.
      if (error instanceof Error && error.stack === '') throw error;
      throw guestError(`${name.toString()}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return vm.newString(answer);
  });
  const shapes = vm.hostToHandle(
    options.hostFunctions.map((fn) => ({
      name: fn.name,
      parameters: fn.parameters.map((p) => ({ name: p.name })),
    })),
  );
  const factory =
    options.preludeBytecode === undefined
      ? vm.evalCode(PRELUDE_SOURCE, '<prelude>')
      : vm.evalBytecode(options.preludeBytecode);
  try {
    return vm
      .callFunction(factory, vm.undefined, write, callHost, shapes)
      .consume((prelude) => ({ show: prelude.getProp('show'), setInputs: prelude.getProp('setInputs') }));
  } finally {
    for (const handle of [factory, write, callHost, shapes]) handle.dispose();
  }
}
