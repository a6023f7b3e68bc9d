/**
 * The prelude compiled to QuickJS bytecode once per host process, so that each sandbox boots without
 * parsing it: the prelude is the largest script a boot evaluates, and parsing it in the interpreter is
 * a tenth of a cold start. It is compiled here, in the host, from the same source and by the same
 * engine build the children load — never taken from a child — and handed to each child in its boot
 * frame. When compiling fails the children parse the source themselves, as before.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { QuickJS } from 'quickjs-wasi';
import { PRELUDE_SOURCE } from '../child/prelude-source.js';

let compiled: Promise<string | undefined> | undefined;

/** The prelude's bytecode, base64; undefined when it could not be compiled. Compiled at the first call. */
export function preludeBytecode(): Promise<string | undefined> {
  compiled ??= compile().catch(() => undefined);
  return compiled;
}

async function compile(): Promise<string> {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('quickjs-wasi/quickjs.wasm'));
  const vm = await QuickJS.create({ wasm });
  try {
    return Buffer.from(vm.compile(PRELUDE_SOURCE, '<prelude>')).toString('base64');
  } finally {
    vm.dispose();
  }
}
