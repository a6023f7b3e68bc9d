/**
 * One run's trace: a span per model attempt (`model.call`), tool call (`tool.<name>`) and hook decision
 * (`hook.<name>`). Trace totals are by construction the sum of its spans. STANDARD detail records no
 * content; VERBOSE adds prompt, answer, arguments and results (redacted by whoever records them).
 */
import { type CostEstimate } from '../cost/cost-estimate.js';
import { type Usage } from '../model/usage.js';

export type SpanKind = 'model.call' | `tool.${string}` | `hook.${string}`;

export const SpanStatus = { OK: 'OK', ERROR: 'ERROR' } as const;
export type SpanStatus = (typeof SpanStatus)[keyof typeof SpanStatus];

export const TraceDetail = { STANDARD: 'STANDARD', VERBOSE: 'VERBOSE' } as const;
export type TraceDetail = (typeof TraceDetail)[keyof typeof TraceDetail];

export interface Span {
  readonly id: string;
  readonly kind: SpanKind;
  /** Epoch milliseconds. */
  readonly startTime: number;
  readonly endTime: number;
  readonly durationMs: number;
  readonly status: SpanStatus;
  readonly error?: string;
  readonly usage: Usage;
  readonly cost: CostEstimate;
  readonly attributes: Readonly<Record<string, string>>;
  /** VERBOSE only: what went in (prompt, tool arguments) and came out (answer, tool result). */
  readonly input?: string;
  readonly output?: string;
}

export interface Trace {
  readonly id: string;
  readonly name: string;
  readonly detail: TraceDetail;
  readonly sessionId?: string;
  readonly runId?: string;
  readonly modelId?: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly durationMs: number;
  readonly status: SpanStatus;
  readonly error?: string;
  readonly spans: readonly Span[];
  readonly attributes: Readonly<Record<string, string>>;
  readonly inputText?: string;
  readonly outputText?: string;
  /** Sum of the spans' usage. */
  readonly usage: Usage;
  readonly totalTokens: number;
  /** Sum of the spans' cost. */
  readonly cost: CostEstimate;
}

/** Receives one Trace per run, on every ending, before the run's result settles. */
export interface TraceListener {
  onTrace(trace: Trace): void | Promise<void>;
}

export function toolSpanKind(toolName: string): SpanKind {
  return `tool.${toolName}`;
}

export function hookSpanKind(hookName: string): SpanKind {
  return `hook.${hookName}`;
}
