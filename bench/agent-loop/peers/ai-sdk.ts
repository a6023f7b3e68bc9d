/**
 * Vercel AI SDK 7: `generateText` with a zod `tool()` and `stopWhen: stepCountIs(turns + 1)`, against
 * `ai/test`'s MockLanguageModelV4 answering from a counter (reference/perf-anchors.md §1). Tools are
 * defined once per process, the model (it counts) once per run.
 */
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { type W1Outcome } from '../outcome.ts';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

let toolCalls = 0;
const tools = {
  add: tool({
    description: 'adds',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => {
      toolCalls += 1;
      return String(a + b);
    },
  }),
};

export async function run(turns: number): Promise<W1Outcome> {
  let modelCalls = 0;
  toolCalls = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      const turn = modelCalls;
      modelCalls += 1;
      return turn < turns
        ? {
            content: [
              {
                type: 'tool-call',
                toolCallId: `call-${turn}`,
                toolName: 'add',
                input: `{"a":${turn},"b":2}`,
              },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          };
    },
  });
  const result = await generateText({
    model,
    prompt: 'add things',
    tools,
    stopWhen: stepCountIs(turns + 1),
  });
  return { modelCalls, toolCalls, text: result.text };
}
