/**
 * Configuration parsing: our full load (YAML → environment overrides → strict zod validation) against
 * the bare YAML parse of the same document, to show what validation costs on top of parsing.
 */
import { Bench } from 'tinybench';
import { parse } from 'yaml';
import { parseConfig } from '../../apps/api/src/config/load-config.ts';
import type { BenchResult } from '../run.ts';

const document = `
server:
  host: 127.0.0.1
  port: 8080
  shutdownGraceMs: 10000
database:
  dataDir: .helios
  poolSize: 10
log:
  level: info
dashboard:
  port: 3000
`;
const env = { PORT: '9090', DATABASE_URL: 'postgres://helios:secret@db:5432/helios' };

export default async function run(): Promise<BenchResult> {
  const bench = new Bench({ time: 1_000, warmup: true });
  bench.add('yaml.parse', () => parse(document)).add('parseConfig', () => parseConfig(document, env));
  await bench.run();
  const hz = (name: string): number => {
    const result = bench.getTask(name)?.result;
    return result && 'throughput' in result ? result.throughput.mean : Number.NaN;
  };
  return {
    metrics: {
      'yaml.parse ops/s': Math.round(hz('yaml.parse')),
      'parseConfig ops/s': Math.round(hz('parseConfig')),
    },
    ratios: {
      'parseConfig time / yaml.parse time': Number((hz('yaml.parse') / hz('parseConfig')).toFixed(2)),
    },
  };
}
