/**
 * W1 agent-loop overhead (reference/perf-anchors.md): one run of N model turns, each one `add(a,b)` tool
 * call, then a final text turn, against an instant in-memory model that answers from a counter (no
 * O(history) work of its own). Helios runs with one event reader, the default permission policy and a
 * trace listener; the floor is a hand-written loop over plain objects. µs/turn = median ms/run × 1000 /
 * (N + 1). Peers (AI SDK 7, OpenAI Agents, LangGraph) are not installed here: compare against the
 * figures perf-anchors.md records for this machine class.
 */
import {
  createModelStream,
  defineTool,
  FinishReason,
  type Message,
  type Model,
  type ModelChunk,
  type ModelStream,
  ParameterType,
  toolCall,
  ToolResult,
  Usage,
} from '../../libs/core/src/index.ts';
import { AgentSession, bindTool, ToolCategory } from '../../libs/session/src/index.ts';

const RUNS = 20;
const WARMUP_TURNS = 600;

/** Answers turn k < turns with one add call, then 'done'; ignores the prompt. */
class CounterModel implements Model {
  readonly id = 'bench-counter';
  readonly provider = 'bench';
  readonly contextWindow = 0;
  readonly maxOutputTokens = 0;
  readonly rawOutputCapture = 'ENABLED' as const;
  #turn = 0;

  constructor(private readonly turns: number) {}

  chatStream(
    _messages: readonly Message[],
    _tools?: unknown,
    options?: { signal?: AbortSignal },
  ): ModelStream {
    const turn = this.#turn;
    this.#turn += 1;
    const turns = this.turns;
    return createModelStream(async function* (): AsyncGenerator<ModelChunk> {
      if (turn < turns) {
        const call = toolCall(
          `call-${turn}`,
          'add',
          JSON.parse(`{"a":${turn},"b":2}`) as Record<string, unknown>,
        );
        yield { type: 'ToolUseStart', callId: call.id, toolName: 'add' };
        yield { type: 'ToolUseStop', toolCall: call };
        yield {
          type: 'MessageStop',
          finishReason: FinishReason.TOOL_CALLS,
          usage: Usage.of(10, 5),
          metadata: {},
        };
      } else {
        yield { type: 'TextDelta', text: 'done' };
        yield { type: 'MessageStop', finishReason: FinishReason.STOP, usage: Usage.of(10, 1), metadata: {} };
      }
    }, options?.signal);
  }

  chat(): never {
    throw new Error('the benchmark streams only');
  }

  async close(): Promise<void> {}
}

const add = defineTool({
  name: 'add',
  description: 'adds',
  parameters: [
    { name: 'a', type: ParameterType.NUMBER, required: true },
    { name: 'b', type: ParameterType.NUMBER, required: true },
  ],
  execute: (args) => ToolResult.success(String(Number(args['a']) + Number(args['b']))),
});

async function heliosRun(turns: number): Promise<void> {
  const session = await AgentSession.open({
    model: new CounterModel(turns),
    tools: [bindTool(add, ToolCategory.READ)],
    limits: { maxTurns: turns + 10 },
    traceListener: { onTrace: () => undefined },
  });
  const events = session.events();
  const reading = (async () => {
    for await (const _event of events);
  })();
  const result = await session.send('add things');
  if (result.type !== 'Success' || result.result !== 'done') throw new Error(`W1 failed: ${result.type}`);
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

async function measure(run: (turns: number) => Promise<void>, turns: number) {
  for (let done = 0; done < WARMUP_TURNS; done += turns + 1) await run(turns);
  const times: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    await run(turns);
    times.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  const ms = median(times);
  return { ms, usPerTurn: (ms * 1000) / (turns + 1), cpuMsPerRun: (cpu.user + cpu.system) / 1000 / RUNS };
}

export default async function run(): Promise<{
  metrics: Record<string, number>;
  ratios: Record<string, number>;
}> {
  const floor200 = await measure(floorRun, 200);
  const floor10 = await measure(floorRun, 10);
  const helios200 = await measure(heliosRun, 200);
  const helios10 = await measure(heliosRun, 10);
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
