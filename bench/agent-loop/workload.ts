/**
 * The W1 workload the session benchmarks share (reference/perf-anchors.md): an instant in-memory model
 * that answers turn k < N with one `add(a,b)` call and then 'done', and the trivial `add` tool.
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
  type Tool,
  toolCall,
  ToolResult,
  Usage,
} from '@helios/core';
import { AgentSession, bindTool, type SessionOptions, ToolCategory } from '@helios/session';

/** Answers turn k < turns with one add call, then 'done'; ignores the prompt. */
export class CounterModel implements Model {
  readonly id = 'bench-counter';
  readonly provider = 'bench';
  readonly contextWindow = 0;
  readonly maxOutputTokens = 0;
  readonly rawOutputCapture = 'ENABLED' as const;
  #turn = 0;

  constructor(private readonly turns: number) {}

  /** Model calls so far (the benchmark checks every run made turns + 1). */
  get calls(): number {
    return this.#turn;
  }

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

/** The `add` tool; `onCall` (if given) runs on every execution, so a benchmark can count them. */
export function addTool(onCall?: () => void): Tool {
  return defineTool({
    name: 'add',
    description: 'adds',
    parameters: [
      { name: 'a', type: ParameterType.NUMBER, required: true },
      { name: 'b', type: ParameterType.NUMBER, required: true },
    ],
    execute: (args) => {
      onCall?.();
      return ToolResult.success(String(Number(args['a']) + Number(args['b'])));
    },
  });
}

export const add = addTool();

/** A session over the W1 model with the add tool, a trace listener and the default permission policy. */
export function openW1Session(turns: number, options: Partial<SessionOptions> = {}): Promise<AgentSession> {
  return AgentSession.open({
    model: new CounterModel(turns),
    tools: [bindTool(add, ToolCategory.READ)],
    limits: { maxTurns: turns + 10 },
    traceListener: { onTrace: () => undefined },
    ...options,
  });
}

/** Sends the W1 prompt and checks the run ended with the model's final answer. */
export async function runW1(session: AgentSession): Promise<void> {
  const result = await session.send('add things');
  if (result.type !== 'Success' || result.result !== 'done') throw new Error(`W1 failed: ${result.type}`);
}
