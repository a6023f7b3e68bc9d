/**
 * A run's trace when the session has a TraceListener; nothing at all otherwise, so an untraced session
 * pays no recording cost. Content is recorded redacted and kept only under VERBOSE (TraceRecorder).
 */
import { type Message, TraceDetail, TraceRecorder } from '@helios/core';

export interface RunTraceStart {
  readonly detail: TraceDetail | undefined;
  readonly sessionId: string;
  readonly runId: string;
  readonly modelId: string;
}

export function newRunTrace(start: RunTraceStart): TraceRecorder {
  return new TraceRecorder({
    name: 'session.run',
    detail: start.detail ?? TraceDetail.STANDARD,
    sessionId: start.sessionId,
    runId: start.runId,
    modelId: start.modelId,
  });
}

/** The prompt as a VERBOSE span records it: one line per message, role first. */
export function renderPrompt(messages: readonly Message[]): string {
  return messages
    .map((message) => {
      switch (message.role) {
        case 'assistant':
          return `[assistant] ${message.content}${message.toolCalls
            .map((call) => ` {tool_call ${call.name} ${JSON.stringify(call.arguments)}}`)
            .join('')}`;
        case 'tool':
          return `[tool ${message.toolName}] ${message.content}`;
        case 'system':
        case 'user':
          return `[${message.role}] ${message.content}`;
        default: {
          const unknown: never = message;
          return unknown;
        }
      }
    })
    .join('\n');
}
