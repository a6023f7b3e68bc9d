/**
 * W1 agent-loop overhead (reference/perf-anchors.md): one run of N model turns, each one `add(a,b)` tool
 * call, then a final text turn, against an instant in-memory model that answers from a counter (no
 * O(history) work of its own). Helios runs with one event reader, the default permission policy and a
 * trace listener; the floor is a hand-written loop over plain objects. µs/turn = median ms/run × 1000 /
 * (N + 1), the two sizes interleaved. Runs against the built packages (`nx run-many -t build -p core
 * session` first), as an application would. Peers (AI SDK 7, OpenAI Agents, LangGraph) are not installed here: compare against the
 * figures perf-anchors.md records for this machine class.
 */
import { openW1Session, runW1 } from './workload.ts';

const RUNS = 20;
const WARMUP_TURNS = 600;

async function heliosRun(turns: number): Promise<void> {
  const session = await openW1Session(turns);
  const events = session.events();
  const reading = (async () => {
    for await (const _event of events);
  })();
  await runW1(session);
  await session.close();
  await reading;
}

/** The floor: the same work with plain objects, one event to one subscriber. */
async function floorRun(turns: number): Promise<void> {
  const history: { role: string; content: string; call?: unknown }[] = [
    { role: 'user', content: 'add things' },
  ];
  let events = 0;
  const emit = (_event: unknown): void => void (events += 1);
  const model = async (turn: number) =>
    turn < turns
      ? { text: '', call: { id: `c${turn}`, name: 'add', args: `{"a":${turn},"b":2}` } }
      : { text: 'done', call: undefined };
  const tools: Record<string, (args: { a: number; b: number }) => Promise<string>> = {
    add: async ({ a, b }) => String(a + b),
  };
  for (let turn = 0; ; turn += 1) {
    const answer = await model(turn);
    if (!answer.call) {
      history.push({ role: 'assistant', content: answer.text });
      emit({ type: 'done', text: answer.text });
      break;
    }
    history.push({ role: 'assistant', content: '', call: answer.call });
    const tool = tools[answer.call.name];
    const output = tool ? await tool(JSON.parse(answer.call.args) as { a: number; b: number }) : 'not found';
    history.push({ role: 'tool', content: output });
    emit({ type: 'tool', output });
  }
  if (events !== turns + 1) throw new Error('floor failed');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

interface Measured {
  readonly usPerTurn: number;
  readonly cpuMsPerRun: number;
}

/**
 * Median ms per run at each size, sizes interleaved round by round (each round ≈ the same number of
 * turns per size), so drift in a shared machine's load hits every size alike instead of skewing the
 * @200 ÷ @10 ratio.
 */
async function measure(run: (turns: number) => Promise<void>, sizes: readonly number[]): Promise<Measured[]> {
  const largest = Math.max(...sizes);
  for (const turns of sizes) for (let done = 0; done < WARMUP_TURNS; done += turns + 1) await run(turns);
  const times = sizes.map((): number[] => []);
  const cpu = sizes.map(() => 0);
  for (let round = 0; round < RUNS; round += 1) {
    for (const [index, turns] of sizes.entries()) {
      for (let done = 0; done < largest; done += turns) {
        const cpuStart = process.cpuUsage();
        const start = performance.now();
        await run(turns);
        times[index]?.push(performance.now() - start);
        const used = process.cpuUsage(cpuStart);
        cpu[index] = (cpu[index] ?? 0) + used.user + used.system;
      }
    }
  }
  return sizes.map((turns, index) => {
    const samples = times[index] ?? [];
    return {
      usPerTurn: (median(samples) * 1000) / (turns + 1),
      cpuMsPerRun: (cpu[index] ?? 0) / 1000 / samples.length,
    };
  });
}

export default async function run(): Promise<{
  metrics: Record<string, number>;
  ratios: Record<string, number>;
}> {
  const [floor200, floor10] = (await measure(floorRun, [200, 10])) as [Measured, Measured];
  const [helios200, helios10] = (await measure(heliosRun, [200, 10])) as [Measured, Measured];
  const round = (value: number): number => Math.round(value * 100) / 100;
  return {
    metrics: {
      'helios µs/turn @200': round(helios200.usPerTurn),
      'helios µs/turn @10': round(helios10.usPerTurn),
      'helios CPU ms/run @200': round(helios200.cpuMsPerRun),
      'floor µs/turn @200': round(floor200.usPerTurn),
      'floor µs/turn @10': round(floor10.usPerTurn),
      'peak RSS MB': round(process.resourceUsage().maxRSS / 1024),
    },
    ratios: {
      'helios @200 ÷ helios @10 (target ≤ 1.2)': round(helios200.usPerTurn / helios10.usPerTurn),
      'helios ÷ floor @200': round(helios200.usPerTurn / floor200.usPerTurn),
      'helios ÷ ai-sdk 7 recorded 565 µs/turn (target ≤ 0.1)': round(helios200.usPerTurn / 565),
    },
  };
}
