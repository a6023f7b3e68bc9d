/**
 * W1 agent-loop overhead, Helios side by side with its peers in one run (reference/perf-anchors.md §1):
 * one run of N model turns, each one `add(a,b)` tool call, then a final text turn, against an instant
 * in-memory model per system that answers from a counter (no O(history) work of its own).
 *
 * Systems (peers/): Helios with one event reader, the default permission policy and a trace listener
 * (and the same with a reader buffer that holds a whole run, so its reader reads every event);
 * Vercel AI SDK 7 `generateText` + MockLanguageModelV4; OpenAI Agents JS with a custom Model and
 * tracing disabled; LangGraph `createReactAgent` with a custom BaseChatModel; the hand-written floor.
 * Each runs in a worker process of its own: the peers install process-wide state (LangChain's
 * AsyncLocalStorage, the Agents SDK's trace provider, AI SDK's diagnostics channels) that would tax
 * whoever shares their process, and per-system CPU and peak RSS need a process each.
 *
 * Each worker warms up (≥ 600 turns per size), then 4 rounds interleave the systems (order rotated):
 * in its turn a system does 5 × (1 run of 200 turns, 20 of 10) back to back, 20 runs of 200 and 400 of
 * 10 in all, so drift in a shared machine's load hits every system alike. Rounds are few and long so
 * that, as in perf-anchors' scripts, a system's runs follow one another: a worker idling between single
 * runs finishes its garbage collection off the clock, which flatters the GC-heavy peers. The machine is
 * noisy (AI SDK 7 @200 ranged 350–480 µs/turn between full runs here), so read same-run ratios.
 * Every run is checked (201 model calls, 200 tool executions, text 'done') or the bench throws.
 * µs/turn = median wall ms/run × 1000 / (N + 1); CPU ms/run = mean user + system time, which includes
 * V8's GC helper threads (so it can exceed wall time); peak RSS = the worker's maxRSS (module loading,
 * warm-up and all runs). Helios runs against the built packages (`nx run-many -t build -p core session
 * testing` first), as an application would.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Sample } from './protocol.ts';
import { SYSTEMS } from './systems.ts';
import { median } from '../median.ts';
import { Worker } from './workers.ts';

const SIZES = [200, 10] as const;
const RUNS = 20;
const ROUNDS = 4;

function version(pkg: string): string {
  const file = join(import.meta.dirname, '..', '..', 'node_modules', pkg, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

interface Figures {
  readonly label: string;
  /** µs/turn, CPU ms/run: one per size in SIZES. */
  readonly usPerTurn: readonly number[];
  readonly cpuMsPerRun: readonly number[];
  readonly peakRssMB: number;
}

/** Starts and warms every worker (one at a time), runs the interleaved rounds, stops them. */
async function measure(): Promise<Figures[]> {
  const workers: Worker[] = [];
  try {
    for (const system of SYSTEMS) {
      const worker = await Worker.start(system.name);
      workers.push(worker);
      await worker.request({ type: 'warmup', sizes: SIZES }, 'warm');
    }
    const samples = workers.map(() => SIZES.map((): Sample[] => []));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let k = 0; k < workers.length; k += 1) {
        const index = (round + k) % workers.length;
        const reply = await workers[index]!.request(
          { type: 'round', sizes: SIZES, repeats: RUNS / ROUNDS },
          'round',
        );
        reply.samples.forEach((runs, size) => samples[index]![size]!.push(...runs));
      }
    }
    const figures: Figures[] = [];
    for (const [index, worker] of workers.entries()) {
      const { maxRssMB } = await worker.request({ type: 'stop' }, 'stopped');
      const system = SYSTEMS[index]!;
      figures.push({
        label: system.pkg ? `${system.name} ${version(system.pkg)}` : system.name,
        usPerTurn: SIZES.map(
          (turns, size) => (median(samples[index]![size]!.map((s) => s.ms)) * 1000) / (turns + 1),
        ),
        cpuMsPerRun: SIZES.map((_, size) => {
          const runs = samples[index]![size]!;
          return runs.reduce((sum, s) => sum + s.cpuMs, 0) / runs.length;
        }),
        peakRssMB: maxRssMB,
      });
    }
    return figures;
  } finally {
    for (const worker of workers) worker.kill();
  }
}

export default async function run(): Promise<{
  metrics: Record<string, number>;
  ratios: Record<string, number>;
}> {
  const figures = await measure();
  const round = (value: number): number => Math.round(value * 100) / 100;
  const metrics: Record<string, number> = {};
  for (const { label, usPerTurn, cpuMsPerRun, peakRssMB } of figures) {
    SIZES.forEach((turns, size) => (metrics[`${label} µs/turn @${turns}`] = round(usPerTurn[size]!)));
    SIZES.forEach((turns, size) => (metrics[`${label} CPU ms/run @${turns}`] = round(cpuMsPerRun[size]!)));
    metrics[`${label} peak RSS MB`] = round(peakRssMB);
  }
  // What the one Helios reader saw in a W1 run (counted here, off the clock, after the workers stopped).
  const { run: heliosRun } = await import('./peers/helios.ts');
  const seen = await heliosRun(200);
  metrics['helios reader: events read @200'] = seen.eventsRead ?? 0;
  metrics['helios reader: events missed @200'] = seen.eventsMissed ?? 0;
  const [helios, everyEvent, ...others] = figures as [Figures, Figures, ...Figures[]];
  const aiSdk = figures.find((f) => f.label.startsWith('ai-sdk'))!;
  const ratios: Record<string, number> = {
    [`helios ÷ ${aiSdk.label} µs/turn @200 (target ≤ 0.1)`]: round(
      helios.usPerTurn[0]! / aiSdk.usPerTurn[0]!,
    ),
    'helios @200 ÷ helios @10 (target ≤ 1.2)': round(helios.usPerTurn[0]! / helios.usPerTurn[1]!),
    // The reader's whole work inside the figure (a buffer that holds a whole run).
    [`helios-every-event ÷ ${aiSdk.label} µs/turn @200`]: round(
      everyEvent.usPerTurn[0]! / aiSdk.usPerTurn[0]!,
    ),
    'helios-every-event @200 ÷ @10': round(everyEvent.usPerTurn[0]! / everyEvent.usPerTurn[1]!),
  };
  for (const other of others) {
    SIZES.forEach((turns, size) => {
      if (other === aiSdk && size === 0) return; // the target ratio above
      ratios[`helios ÷ ${other.label} µs/turn @${turns}`] = round(
        helios.usPerTurn[size]! / other.usPerTurn[size]!,
      );
    });
    ratios[`helios ÷ ${other.label} CPU ms/run @200`] = round(helios.cpuMsPerRun[0]! / other.cpuMsPerRun[0]!);
  }
  for (const other of others)
    ratios[`${other.label} @200 ÷ @10`] = round(other.usPerTurn[0]! / other.usPerTurn[1]!);
  return { metrics, ratios };
}
