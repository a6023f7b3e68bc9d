/**
 * Issue 19: a recorded 10,000-event stream per provider through our parser into ModelChunks, side by
 * side in one run with the floor — the same bytes through `eventsource-parser` + `JSON.parse` alone.
 * Target: our cost per event ≤ 2× the floor's, for every provider.
 *
 * "Ours" is what a model's stream runs after `fetch` hands over the body: the body as a web
 * ReadableStream of network-sized pieces, `readServerEvents` (decoding, SSE parsing, the idle timeout;
 * a batch of events per piece) and the provider's decoder as the async generator a model's stream
 * pulls (`AnthropicStreamState` and `GeminiStreamState` as their turns drive them, `openAiChunks`,
 * `chatChunks`), counting
 * every ModelChunk — one async step per chunk, the one core's ModelStream takes anyway. The floor parses the same pieces with `createParser` and `JSON.parse`s each event's data.
 * Each stream is a realistic turn: the provider's opening events, text deltas, one tool call whose
 * arguments arrive in 200 fragments, and the closing events with usage. Rounds alternate ours and the
 * floor; figures are medians.
 */
import { createParser } from 'eventsource-parser';
import { AnthropicStreamState } from '../../libs/providers/src/anthropic/anthropic-stream.ts';
import { GeminiStreamState } from '../../libs/providers/src/gemini/gemini-stream.ts';
import { openAiChunks } from '../../libs/providers/src/openai/openai-stream.ts';
import { chatChunks } from '../../libs/providers/src/openai-compatible/chat-stream.ts';
import { readServerEvents, type ServerEventBatch } from '../../libs/providers/src/shared/server-events.ts';
import { type ModelChunk } from '../../libs/core/src/index.ts';
import { median } from '../median.ts';
import type { BenchResult } from '../run.ts';

const EVENTS = 10_000;
const TOOL_FRAGMENTS = 200;
/** Bytes per network piece handed to the parser (a typical TLS record / socket read). */
const PIECE_BYTES = 16_384;
const ROUNDS = 7;
const TARGET = 2;

type Sse = readonly (readonly [event: string | undefined, data: unknown])[];

function sse(events: Sse): string {
  return events
    .map(([name, data]) => `${name === undefined ? '' : `event: ${name}\n`}data: ${JSON.stringify(data)}\n\n`)
    .join('');
}

const words = (i: number): string => ` word${i % 97} of the answer,`;
const fragments = (): string[] => {
  const json = JSON.stringify({ path: 'src/index.ts', query: 'x'.repeat(TOOL_FRAGMENTS * 3), limit: 20 });
  const size = Math.ceil(json.length / TOOL_FRAGMENTS);
  return Array.from({ length: TOOL_FRAGMENTS }, (_, i) => json.slice(i * size, (i + 1) * size));
};

function anthropicStream(): string {
  const opening: Sse = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-5',
          content: [],
          stop_reason: null,
          usage: {
            input_tokens: 2100,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 2048,
            output_tokens: 1,
          },
        },
      },
    ],
    [
      'content_block_start',
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ],
  ];
  const text = EVENTS - opening.length - TOOL_FRAGMENTS - 6;
  const body: Sse = Array.from({ length: text }, (_, i) => [
    'content_block_delta',
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: words(i) } },
  ]);
  const tool: Sse = [
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'content_block_start',
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'Grep', input: {} },
      },
    ],
    ...fragments().map((part): Sse[number] => [
      'content_block_delta',
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: part } },
    ]),
    ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 9000 },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
  return sse([...opening, ...body, ...tool]);
}

function openAiStream(): string {
  const response = { id: 'resp_1', object: 'response', status: 'in_progress', model: 'gpt-5.5', output: [] };
  const opening: Sse = [
    ['response.created', { type: 'response.created', sequence_number: 0, response }],
    [
      'response.output_item.added',
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] },
      },
    ],
  ];
  const text = EVENTS - opening.length - TOOL_FRAGMENTS - 4;
  const body: Sse = Array.from({ length: text }, (_, i) => [
    'response.output_text.delta',
    {
      type: 'response.output_text.delta',
      sequence_number: i + 2,
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: words(i),
      logprobs: [],
    },
  ]);
  const args = fragments();
  const tool: Sse = [
    [
      'response.output_item.added',
      {
        type: 'response.output_item.added',
        output_index: 1,
        item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'Grep', arguments: '' },
      },
    ],
    ...args.map((delta): Sse[number] => [
      'response.function_call_arguments.delta',
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 1, delta },
    ]),
    [
      'response.function_call_arguments.done',
      {
        type: 'response.function_call_arguments.done',
        item_id: 'fc_1',
        output_index: 1,
        arguments: args.join(''),
      },
    ],
    [
      'response.output_item.done',
      {
        type: 'response.output_item.done',
        output_index: 1,
        item: {
          id: 'fc_1',
          type: 'function_call',
          call_id: 'call_1',
          name: 'Grep',
          arguments: args.join(''),
          status: 'completed',
        },
      },
    ],
    [
      'response.completed',
      {
        type: 'response.completed',
        response: {
          ...response,
          status: 'completed',
          usage: {
            input_tokens: 2100,
            input_tokens_details: { cached_tokens: 2048 },
            output_tokens: 9000,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 11100,
          },
        },
      },
    ],
  ];
  return sse([...opening, ...body, ...tool]);
}

function chatCompletionsStream(): string {
  const chunk = (delta: object, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'llama3.1',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const text = EVENTS - TOOL_FRAGMENTS - 3;
  const body: Sse = Array.from({ length: text }, (_, i) => [undefined, chunk({ content: words(i) })]);
  const tool: Sse = fragments().map((part, i): Sse[number] => [
    undefined,
    chunk({
      tool_calls: [
        {
          index: 0,
          ...(i === 0
            ? { id: 'call_1', type: 'function', function: { name: 'Grep', arguments: part } }
            : { function: { arguments: part } }),
        },
      ],
    }),
  ]);
  const closing: Sse = [
    [undefined, chunk({}, 'tool_calls')],
    [
      undefined,
      {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        choices: [],
        usage: { prompt_tokens: 2100, completion_tokens: 9000, total_tokens: 11100 },
      },
    ],
  ];
  return `${sse([[undefined, chunk({ role: 'assistant', content: '' })], ...body, ...tool, ...closing])}data: [DONE]\n\n`;
}

function geminiStream(): string {
  const step = (name: string, data: object): Sse[number] => [name, { ...data, event_type: name }];
  const opening: Sse = [
    step('interaction.created', {
      interaction: {
        id: 'v1_1',
        status: 'in_progress',
        object: 'interaction',
        model: 'gemini-3-flash-preview',
      },
    }),
    step('step.start', { index: 0, step: { type: 'model_output' } }),
  ];
  const text = EVENTS - opening.length - TOOL_FRAGMENTS - 4;
  const body: Sse = Array.from({ length: text }, (_, i) =>
    step('step.delta', { index: 0, delta: { text: words(i), type: 'text' } }),
  );
  const tool: Sse = [
    step('step.stop', { index: 0 }),
    step('step.start', {
      index: 1,
      step: { type: 'function_call', id: 'fc_1', name: 'Grep', arguments: {} },
    }),
    ...fragments().map((part) =>
      step('step.delta', { index: 1, delta: { type: 'arguments_delta', arguments: part } }),
    ),
    step('step.stop', { index: 1 }),
    step('interaction.completed', {
      interaction: {
        id: 'v1_1',
        status: 'completed',
        object: 'interaction',
        model: 'gemini-3-flash-preview',
        usage: {
          total_tokens: 11100,
          total_input_tokens: 2100,
          total_cached_tokens: 2048,
          total_output_tokens: 9000,
          total_tool_use_tokens: 0,
          total_thought_tokens: 0,
        },
      },
    }),
  ];
  return sse([...opening, ...body, ...tool]);
}

function pieces(text: string): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) out.push(bytes.subarray(at, at + PIECE_BYTES));
  return out;
}

function body(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

const source = { provider: 'bench', apiKey: undefined };
const events = (chunks: readonly Uint8Array[]): AsyncGenerator<ServerEventBatch> =>
  readServerEvents(body(chunks), { ...source, streamIdleTimeoutMs: 60_000, status: 200 });

interface Provider {
  readonly name: string;
  readonly chunks: readonly Uint8Array[];
  /** ModelChunks our decoder yields for the stream. */
  ours(chunks: readonly Uint8Array[]): Promise<number>;
}

const PROVIDERS: readonly Provider[] = [
  {
    name: 'anthropic',
    chunks: pieces(anthropicStream()),
    async ours(chunks) {
      let n = 0;
      for await (const _ of anthropicChunks(chunks)) n += 1;
      return n;
    },
  },
  {
    name: 'openai',
    chunks: pieces(openAiStream()),
    async ours(chunks) {
      let n = 0;
      for await (const _ of openAiChunks(events(chunks), source)) n += 1;
      return n;
    },
  },
  {
    name: 'gemini',
    chunks: pieces(geminiStream()),
    async ours(chunks) {
      let n = 0;
      for await (const _ of geminiChunks(chunks)) n += 1;
      return n;
    },
  },
  {
    name: 'openai-compatible',
    chunks: pieces(chatCompletionsStream()),
    async ours(chunks) {
      let n = 0;
      for await (const _ of chatChunks(events(chunks), source)) n += 1;
      return n;
    },
  },
];

/** What `anthropicTurn` runs for one segment: the batches through the stream state, a chunk at a time. */
async function* anthropicChunks(chunks: readonly Uint8Array[]): AsyncGenerator<ModelChunk> {
  const state = new AnthropicStreamState(source);
  for await (const batch of events(chunks)) {
    for (const event of batch) {
      const chunk = state.accept(event);
      if (chunk !== undefined) yield chunk;
    }
  }
  state.segment();
}

/** What `geminiTurn` runs: the batches through the stream state, its chunks collected per event. */
async function* geminiChunks(chunks: readonly Uint8Array[]): AsyncGenerator<ModelChunk> {
  const state = new GeminiStreamState(source);
  const out: ModelChunk[] = [];
  for await (const batch of events(chunks)) {
    for (const event of batch) {
      out.length = 0;
      state.accept(event, out);
      for (const chunk of out) yield chunk;
    }
  }
  if (state.segment === undefined) throw new Error('gemini stream did not complete');
}

/** The floor: the same pieces through eventsource-parser, each event's data through JSON.parse. */
function floor(chunks: readonly Uint8Array[]): number {
  const decoder = new TextDecoder();
  let n = 0;
  const parser = createParser({
    onEvent(event) {
      if (event.data !== '[DONE]') JSON.parse(event.data);
      n += 1;
    },
  });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  return n;
}

async function timed(run: () => Promise<number> | number): Promise<{ ms: number; count: number }> {
  const started = process.hrtime.bigint();
  const count = await run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, count };
}

export default async function run(): Promise<BenchResult> {
  const metrics: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  for (const provider of PROVIDERS) {
    // Warm-up: both paths compiled before anything counts.
    for (let i = 0; i < 3; i += 1) {
      await provider.ours(provider.chunks);
      floor(provider.chunks);
    }
    const ours: number[] = [];
    const floors: number[] = [];
    let chunksOut = 0;
    let eventsIn = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const a = await timed(() => provider.ours(provider.chunks));
      const b = await timed(() => floor(provider.chunks));
      ours.push(a.ms);
      floors.push(b.ms);
      chunksOut = a.count;
      eventsIn = b.count;
    }
    const oursUs = (median(ours) * 1000) / eventsIn;
    const floorUs = (median(floors) * 1000) / eventsIn;
    console.log(
      `  ${provider.name}: ${eventsIn} events (${provider.chunks.length} pieces) → ${chunksOut} ModelChunks; ours ${oursUs.toFixed(2)} µs/event, floor ${floorUs.toFixed(2)}`,
    );
    metrics[`${provider.name}: events in the stream`] = eventsIn;
    metrics[`${provider.name}: ModelChunks out`] = chunksOut;
    metrics[`${provider.name}: ours µs per event`] = Number(oursUs.toFixed(3));
    metrics[`${provider.name}: floor µs per event (eventsource-parser + JSON.parse)`] = Number(
      floorUs.toFixed(3),
    );
    ratios[`${provider.name}: ours ÷ floor per event (≤ ${TARGET})`] = Number((oursUs / floorUs).toFixed(2));
  }
  return { metrics, ratios };
}
