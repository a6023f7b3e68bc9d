/**
 * The default compactor (seed "Context compaction"): keeps the leading system prompt and the pending
 * user turn, and replaces everything else with one summary from one model call. No earlier assistant
 * turn survives, so no provider-signed reasoning is replayed and no tool call is split from its result;
 * it never compacts while a tool call is unanswered. A blank or failed summary leaves the history as it
 * is (the loop logs a failure). The summary's usage is reported, so it counts against the run's budget.
 */
import { type Message, Message as Messages, type Model } from '@helios/core';
import { type CompactionContext, type CompactionResult, type ContextCompactor } from './compaction.js';

export const DEFAULT_SUMMARY_PROMPT =
  'You compress a conversation between a user and an AI agent that uses tools, so the agent can ' +
  'continue the task without the original messages. Write a plain summary under 200 words that keeps ' +
  "the user's goal, the facts discovered so far (tool results that matter, with exact values), the " +
  'decisions taken, and the open questions or next steps. Do not address the user.';

export const DEFAULT_SUMMARY_TIMEOUT_MS = 60_000;

/** The header of the user message that carries the summary. */
export const SUMMARY_HEADER = '[Earlier context summary]';

export interface SummarizingCompactorOptions {
  /** The model that writes the summary; default: the session's model. */
  readonly model?: Model;
  readonly prompt?: string;
  readonly timeoutMs?: number;
}

export class SummarizingCompactor implements ContextCompactor {
  readonly #model: Model | undefined;
  readonly #prompt: string;
  readonly #timeoutMs: number;

  constructor(options: SummarizingCompactorOptions = {}) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_SUMMARY_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
    }
    const prompt = options.prompt ?? DEFAULT_SUMMARY_PROMPT;
    if (prompt.trim() === '') throw new RangeError('prompt must not be blank');
    this.#model = options.model;
    this.#prompt = prompt;
    this.#timeoutMs = timeoutMs;
  }

  async compact(history: readonly Message[], context: CompactionContext): Promise<CompactionResult> {
    const head = leadingSystemCount(history);
    const tail = trailingUserStart(history);
    const middle = history.slice(head, tail);
    if (middle.length === 0 || hasUnansweredCall(middle)) return { history };
    const model = this.#model ?? context.model;
    // A plain timer, so fake timers drive the ceiling in tests.
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException(`summary took longer than ${this.#timeoutMs} ms`, 'TimeoutError')),
      this.#timeoutMs,
    );
    let response;
    try {
      response = await model.chat([Messages.system(this.#prompt), Messages.user(render(middle))], [], {
        signal: AbortSignal.any([context.signal, timeout.signal]),
      });
    } finally {
      clearTimeout(timer);
    }
    const summary = response.content.trim();
    const spent = { usage: response.usage, modelId: model.id };
    if (summary === '') return { history, ...spent };
    return {
      history: [
        ...history.slice(0, head),
        Messages.user(`${SUMMARY_HEADER}\n${summary}`),
        ...history.slice(tail),
      ],
      ...spent,
    };
  }
}

function leadingSystemCount(history: readonly Message[]): number {
  let index = 0;
  while (index < history.length && history[index]?.role === 'system') index += 1;
  return index;
}

/** Where the pending user turn starts: the user messages after the last answer (or the end). */
function trailingUserStart(history: readonly Message[]): number {
  let index = history.length;
  while (index > 0 && history[index - 1]?.role === 'user') index -= 1;
  return index;
}

function hasUnansweredCall(messages: readonly Message[]): boolean {
  const answered = new Set<string>();
  for (const message of messages) if (message.role === 'tool') answered.add(message.toolCallId);
  return messages.some(
    (message) => message.role === 'assistant' && message.toolCalls.some((call) => !answered.has(call.id)),
  );
}

/** One line per message: `[role] content {tool_call name(arguments)}`. */
function render(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      switch (message.role) {
        case 'assistant': {
          const calls = message.toolCalls.map(
            (call) => ` {tool_call ${call.name}(${JSON.stringify(call.arguments)})}`,
          );
          return `[assistant] ${message.content}${calls.join('')}`;
        }
        case 'tool':
          return `[tool ${message.toolName}] ${message.content}`;
        default:
          return `[${message.role}] ${message.content}`;
      }
    })
    .join('\n');
}
