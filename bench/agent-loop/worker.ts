/**
 * One system's W1 runs in a process of its own (forked by index.ts, argv[2] = system name), driven over
 * IPC: `warmup`, then one `round` at a time, then `stop` (which reports the process's peak RSS). Every
 * run is checked; a failure is reported to the parent, which throws.
 */
import { checkW1, type W1Run } from './outcome.ts';
import { type Reply, type Request, type Sample } from './protocol.ts';
import { SYSTEMS } from './systems.ts';

const WARMUP_TURNS = 600;

async function timed(system: string, run: W1Run, turns: number): Promise<Sample> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const outcome = await run(turns);
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  checkW1(system, turns, outcome);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Warm-up: at least WARMUP_TURNS model turns at each size. */
async function warmup(system: string, run: W1Run, sizes: readonly number[]): Promise<void> {
  for (const turns of sizes)
    for (let done = 0; done < WARMUP_TURNS; done += turns + 1) await timed(system, run, turns);
}

/**
 * One round: `repeats` times, at each size as many runs as make up the largest size's turns (1 × 200,
 * then 20 × 10), back to back, so the sizes interleave and the process never idles mid-round.
 */
async function round(
  system: string,
  run: W1Run,
  sizes: readonly number[],
  repeats: number,
): Promise<Sample[][]> {
  const largest = Math.max(...sizes);
  const samples = sizes.map((): Sample[] => []);
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    for (const [size, turns] of sizes.entries()) {
      for (let done = 0; done < largest; done += turns) samples[size]!.push(await timed(system, run, turns));
    }
  }
  return samples;
}

async function serve(name: string): Promise<void> {
  const system = SYSTEMS.find((candidate) => candidate.name === name);
  if (!system) throw new Error(`unknown system ${name}`);
  const { run } = await system.load();
  const reply = (message: Reply): void => void process.send?.(message);
  process.on('message', (request: Request) => {
    const handle = async (): Promise<Reply> => {
      switch (request.type) {
        case 'warmup':
          await warmup(name, run, request.sizes);
          return { type: 'warm' };
        case 'round':
          return { type: 'round', samples: await round(name, run, request.sizes, request.repeats) };
        case 'stop':
          return { type: 'stopped', maxRssMB: process.resourceUsage().maxRSS / 1024 };
      }
    };
    handle().then(
      (message) => {
        reply(message);
        if (message.type === 'stopped') process.disconnect();
      },
      (error: unknown) =>
        reply({
          type: 'failed',
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
  reply({ type: 'ready' });
}

if (process.send && process.argv[2]) {
  await serve(process.argv[2]);
}
