/**
 * The Execute tool's description for the JavaScript provider: what runs where, what persists, the
 * limits, and — never silently — whether the OS layer is missing.
 */
import { type OsLayer } from '../process/bubblewrap.js';
import { type JavaScriptProviderConfig } from './javascript-config.js';

export function describeJavaScriptProvider(config: JavaScriptProviderConfig, osLayer: OsLayer): string {
  const mib = Math.round(config.memoryLimitBytes / (1024 * 1024));
  const lines = [
    "Runs a JavaScript (runtime JAVASCRIPT) or TypeScript (runtime TYPESCRIPT; types are stripped, not checked) snippet in this session's sandbox and returns its output.",
    'Top-level variables, functions and classes persist between calls and may be declared again; the last expression\'s value is shown after "=>"; top-level await works.',
    'Print with print/println/printf or console.log. Helpers: sum, sumInts, mean, max, min, join, filter, map, sorted, countBy.',
    'There is no require/import, process, file system, network or timers.',
    "A call's args, environment and stdin are the read-only globals args (strings), env and stdin of that execute only; workingDirectory is refused.",
    `Limits per call: ${config.defaultTimeoutMs / 1000} s by default, ${mib} MiB of memory, 1,000,000 characters per output stream.`,
  ];
  const functions = config.registry.all();
  if (functions.length > 0)
    lines.push(`Host functions you can call: ${functions.map((fn) => fn.name).join(', ')}.`);
  lines.push(
    osLayer.type === 'bubblewrap'
      ? 'Isolation: engine (QuickJS in WebAssembly), a separate process, and an OS sandbox (bubblewrap).'
      : `Isolation: engine (QuickJS in WebAssembly) and a separate process; NO OS sandbox: ${osLayer.reason}.`,
  );
  return lines.join('\n');
}
