/**
 * Records a Trace as a run happens. Content given to a span or the trace is kept only under VERBOSE,
 * so STANDARD traces cannot carry prompts or results even if a caller passes them.
 */
import { newId } from '../common/ids.js';
import { type Mutable } from '../common/mutable.js';
import { CostEstimate } from '../cost/cost-estimate.js';
import { Usage } from '../model/usage.js';
import { type Span, type SpanKind, SpanStatus, type Trace, TraceDetail } from './trace.js';

export interface TraceStart {
  readonly name: string;
  readonly detail?: TraceDetail;
  readonly sessionId?: string;
  readonly runId?: string;
  readonly modelId?: string;
  readonly now?: () => number;
}

export interface TraceEnd {
  readonly error?: string;
  readonly inputText?: string;
  readonly outputText?: string;
}

/** What every span of one trace shares: built once per trace, handed to each of its spans. */
export interface SpanSettings {
  readonly detail: TraceDetail;
  readonly now: () => number;
  readonly onEnd: (span: Span, recorder: SpanRecorder) => void;
}

export class SpanRecorder {
  readonly #detail: TraceDetail;
  readonly #now: () => number;
  readonly #onEnd: (span: Span, recorder: SpanRecorder) => void;
  readonly #attributes: Record<string, string> = {};
  readonly #id = newId();
  readonly #startTime: number;
  #usage: Usage = Usage.ZERO;
  #cost: CostEstimate = CostEstimate.ZERO;
  #input: string | undefined;
  #output: string | undefined;
  #ended = false;

  constructor(
    readonly kind: SpanKind,
    settings: SpanSettings,
    startTime: number = settings.now(),
  ) {
    this.#detail = settings.detail;
    this.#now = settings.now;
    this.#onEnd = settings.onEnd;
    this.#startTime = startTime;
  }

  get ended(): boolean {
    return this.#ended;
  }

  attribute(key: string, value: string): this {
    if (!this.#ended) this.#attributes[key] = value; // an ended span's attributes are frozen into it
    return this;
  }

  usage(usage: Usage): this {
    this.#usage = Usage.plus(this.#usage, usage);
    return this;
  }

  cost(cost: CostEstimate): this {
    this.#cost = this.#cost.plus(cost);
    return this;
  }

  /** Kept under VERBOSE only. */
  content(content: { readonly input?: string; readonly output?: string }): this {
    if (this.#detail === TraceDetail.VERBOSE) {
      this.#input = content.input ?? this.#input;
      this.#output = content.output ?? this.#output;
    }
    return this;
  }

  end(): void {
    this.#close(SpanStatus.OK, undefined);
  }

  fail(error: string): void {
    this.#close(SpanStatus.ERROR, error);
  }

  #close(status: SpanStatus, error: string | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    const endTime = this.#now();
    const span: Mutable<Span> = {
      id: this.#id,
      kind: this.kind,
      startTime: this.#startTime,
      endTime,
      durationMs: endTime - this.#startTime,
      status,
      usage: this.#usage,
      cost: this.#cost,
      attributes: Object.freeze(this.#attributes), // the recorder is done with it: no copy
    };
    if (error !== undefined) span.error = error;
    if (this.#input !== undefined) span.input = this.#input;
    if (this.#output !== undefined) span.output = this.#output;
    this.#onEnd(Object.freeze(span), this);
  }
}

export class TraceRecorder {
  readonly #start: TraceStart;
  readonly #detail: TraceDetail;
  readonly #now: () => number;
  readonly #startTime: number;
  readonly #spans: Span[] = [];
  readonly #open: SpanRecorder[] = [];
  readonly #attributes: Record<string, string> = {};
  readonly #spanSettings: SpanSettings;

  constructor(start: TraceStart) {
    this.#start = start;
    this.#detail = start.detail ?? TraceDetail.STANDARD;
    this.#now = start.now ?? Date.now;
    this.#startTime = this.#now();
    this.#spanSettings = Object.freeze({ detail: this.#detail, now: this.#now, onEnd: this.#onSpanEnd });
  }

  /** The recorder's clock, for a caller that learns only afterwards whether work deserves a span. */
  now(): number {
    return this.#now();
  }

  /**
   * Opens a span. `startTime` (from `now()`) back-dates it, so work that turns out to deserve a span
   * (a hook that decided) gets its real duration without a span opened for every attempt.
   */
  span(kind: SpanKind, startTime?: number): SpanRecorder {
    const recorder = new SpanRecorder(kind, this.#spanSettings, startTime);
    this.#open.push(recorder);
    return recorder;
  }

  /** One callback for every span (a closure per span was a cost of every turn). */
  readonly #onSpanEnd = (span: Span, recorder: SpanRecorder): void => {
    // Few spans are open at once: a swap-remove from the end beats a Set's add/delete churn.
    const open = this.#open;
    const index = open.lastIndexOf(recorder);
    if (index >= 0) {
      open[index] = open[open.length - 1] as SpanRecorder;
      open.pop();
    }
    this.#spans.push(span);
  };

  attribute(key: string, value: string): this {
    this.#attributes[key] = value;
    return this;
  }

  /** Ends the trace; spans still open are failed, so every span the run started is in it. */
  finish(end: TraceEnd = {}): Trace {
    for (const open of [...this.#open]) open.fail('still open when the trace ended');
    const endTime = this.#now();
    const usage = this.#spans.reduce((sum, span) => Usage.plus(sum, span.usage), Usage.ZERO);
    const verbose = this.#detail === TraceDetail.VERBOSE;
    const { name, sessionId, runId, modelId } = this.#start;
    return Object.freeze({
      id: newId(),
      name,
      detail: this.#detail,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(runId === undefined ? {} : { runId }),
      ...(modelId === undefined ? {} : { modelId }),
      startTime: this.#startTime,
      endTime,
      durationMs: endTime - this.#startTime,
      status: end.error === undefined ? SpanStatus.OK : SpanStatus.ERROR,
      ...(end.error === undefined ? {} : { error: end.error }),
      spans: Object.freeze([...this.#spans]),
      attributes: Object.freeze({ ...this.#attributes }),
      ...(verbose && end.inputText !== undefined ? { inputText: end.inputText } : {}),
      ...(verbose && end.outputText !== undefined ? { outputText: end.outputText } : {}),
      usage,
      totalTokens: usage.totalTokens,
      cost: CostEstimate.sum(this.#spans.map((span) => span.cost)),
    });
  }
}
