/**
 * `npm run bench -- <name>` runs bench/<name>/index.ts; `npm run bench` runs them all. Each benchmark's
 * default export returns `{ metrics, ratios }`; this prints them and writes bench/results/<name>.json
 * (`{"name", "date", "machine", "metrics", "ratios"}`) for docs/benchmarks.md. A benchmark that cannot
 * run here (a peer that is not installed) returns `skipped` instead: nothing printed as a result, its
 * last results file kept.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface BenchResult {
  readonly metrics: Record<string, number>;
  readonly ratios: Record<string, number>;
  /** Why nothing was measured (the bench printed how to set it up); no results file is written. */
  readonly skipped?: string;
}

const benchDir = import.meta.dirname;
const available = readdirSync(benchDir).filter(
  (entry) => entry !== 'results' && statSync(join(benchDir, entry)).isDirectory(),
);
const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}

const machine = {
  node: process.version,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
  memoryGiB: Math.round(totalmem() / 2 ** 30),
};

for (const name of requested.length > 0 ? requested : available) {
  const module = (await import(pathToFileURL(resolve(benchDir, name, 'index.ts')).href)) as {
    default: () => Promise<BenchResult>;
  };
  console.log(`\n# ${name}`);
  const { metrics, ratios, skipped } = await module.default();
  if (skipped !== undefined) {
    console.log(`skipped: ${skipped}`);
    continue;
  }
  console.table({
    ...metrics,
    ...Object.fromEntries(Object.entries(ratios).map(([k, v]) => [`ratio ${k}`, v])),
  });
  const result = { name, date: new Date().toISOString(), machine, metrics, ratios };
  writeFileSync(join(benchDir, 'results', `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote bench/results/${name}.json`);
}
