/**
 * LangGraph.js: `createReactAgent` (@langchain/langgraph/prebuilt) over a custom `BaseChatModel` that
 * answers from a counter (reference/perf-anchors.md §1). The tool is defined once per process, model
 * (it counts) and agent per run. Two supersteps per turn, hence the recursion limit.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { type ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { type W1Outcome } from '../outcome.ts';

class CounterChatModel extends BaseChatModel {
  calls = 0;

  constructor(private readonly turns: number) {
    super({});
  }

  _llmType(): string {
    return 'bench-counter';
  }

  /** The model ignores its tools; returning itself satisfies createReactAgent's binding. */
  override bindTools(): this {
    return this;
  }

  async _generate(): Promise<ChatResult> {
    const turn = this.calls;
    this.calls += 1;
    const message =
      turn < this.turns
        ? new AIMessage({
            content: '',
            tool_calls: [
              {
                id: `call-${turn}`,
                name: 'add',
                args: JSON.parse(`{"a":${turn},"b":2}`) as Record<string, unknown>,
                type: 'tool_call',
              },
            ],
          })
        : new AIMessage('done');
    return { generations: [{ text: turn < this.turns ? '' : 'done', message }] };
  }
}

let toolCalls = 0;
const add = tool(
  async ({ a, b }: { a: number; b: number }) => {
    toolCalls += 1;
    return String(a + b);
  },
  { name: 'add', description: 'adds', schema: z.object({ a: z.number(), b: z.number() }) },
);

export async function run(turns: number): Promise<W1Outcome> {
  const model = new CounterChatModel(turns);
  toolCalls = 0;
  const agent = createReactAgent({ llm: model, tools: [add] });
  const result = await agent.invoke(
    { messages: [{ role: 'user', content: 'add things' }] },
    { recursionLimit: 2 * turns + 10 },
  );
  const last = result.messages.at(-1);
  return { modelCalls: model.calls, toolCalls, text: typeof last?.content === 'string' ? last.content : '' };
}
