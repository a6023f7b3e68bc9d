/**
 * OpenAI Agents JS: an `Agent` with a zod `tool()` and a custom `Model` whose `getResponse` returns
 * canned `function_call` / `message` items from a counter; `Runner({ tracingDisabled: true })`
 * (reference/perf-anchors.md §1). Runner and tool once per process; model (it counts) and agent per run.
 */
import {
  Agent,
  type AgentOutputItem,
  type Model,
  type ModelResponse,
  Runner,
  type StreamEvent,
  tool,
  Usage,
} from '@openai/agents';
import { z } from 'zod';
import { type W1Outcome } from '../outcome.ts';

class CounterModel implements Model {
  calls = 0;

  constructor(private readonly turns: number) {}

  async getResponse(): Promise<ModelResponse> {
    const turn = this.calls;
    this.calls += 1;
    const output: AgentOutputItem[] =
      turn < this.turns
        ? [
            {
              type: 'function_call',
              callId: `call-${turn}`,
              name: 'add',
              arguments: `{"a":${turn},"b":2}`,
              status: 'completed',
            },
          ]
        : [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'done' }],
            },
          ];
    return { usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }), output };
  }

  getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('the benchmark does not stream');
  }
}

const runner = new Runner({ tracingDisabled: true });
let toolCalls = 0;
const add = tool({
  name: 'add',
  description: 'adds',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => {
    toolCalls += 1;
    return String(a + b);
  },
});

export async function run(turns: number): Promise<W1Outcome> {
  const model = new CounterModel(turns);
  toolCalls = 0;
  const agent = new Agent({ name: 'bench', instructions: 'You add numbers.', model, tools: [add] });
  const result = await runner.run(agent, 'add things', { maxTurns: turns + 5 });
  return { modelCalls: model.calls, toolCalls, text: String(result.finalOutput) };
}
