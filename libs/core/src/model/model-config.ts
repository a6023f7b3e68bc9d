/**
 * Everything a provider needs to build a Model. The API key and header values are held in private
 * fields and never rendered: toString, util.inspect, template strings and JSON.stringify all show
 * `<redacted>`, so a config is safe to log as is.
 */
import { InvalidArgumentError } from '../common/helios-error.js';
import { requirePositiveInteger } from '../common/validate.js';
import { Reasoning } from './reasoning.js';
import { type ToolChoice } from './tool-choice.js';

/** Whether raw model text may appear in structured-output errors (DISABLED keeps it out). */
export const RawOutputCapturePolicy = { ENABLED: 'ENABLED', DISABLED: 'DISABLED' } as const;
export type RawOutputCapturePolicy = (typeof RawOutputCapturePolicy)[keyof typeof RawOutputCapturePolicy];

export interface ModelConfigOptions {
  readonly apiKey?: string;
  /** Complete endpoint prefix, used verbatim instead of the provider's default. */
  readonly baseUrl?: string;
  /** Extra request headers; they override built-ins case-insensitively. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly stopSequences?: readonly string[];
  readonly seed?: number;
  readonly toolChoice?: ToolChoice;
  /** Absent: no reasoning field is sent and the provider's default applies. */
  readonly reasoning?: Reasoning;
  readonly apiVersion?: string;
  /** Metadata only; overrides the catalogue's context window. */
  readonly contextWindow?: number;
  /** false: resend local history instead of provider-side continuation ids. Default true. */
  readonly providerContinuation?: boolean;
  readonly rawOutputCapture?: RawOutputCapturePolicy;
  readonly connectTimeoutMs?: number;
  /** Wait for response headers. */
  readonly responseTimeoutMs?: number;
  /** Longest silence allowed between two streamed lines. */
  readonly streamIdleTimeoutMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_RESPONSE_TIMEOUT_MS = 60_000;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;

const REDACTED = '<redacted>';
const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

export class ModelConfig {
  readonly #apiKey: string | undefined;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #options: ModelConfigOptions;
  /** Private too: a base URL may carry credentials in its user-info or query. */
  readonly #baseUrl: string | undefined;

  readonly maxOutputTokens: number | undefined;
  readonly temperature: number | undefined;
  readonly topP: number | undefined;
  readonly stopSequences: readonly string[] | undefined;
  readonly seed: number | undefined;
  readonly toolChoice: ToolChoice | undefined;
  readonly reasoning: Reasoning | undefined;
  readonly apiVersion: string | undefined;
  readonly contextWindow: number | undefined;
  readonly providerContinuation: boolean;
  readonly rawOutputCapture: RawOutputCapturePolicy;
  readonly connectTimeoutMs: number;
  readonly responseTimeoutMs: number;
  readonly streamIdleTimeoutMs: number;

  private constructor(options: ModelConfigOptions) {
    validate(options);
    this.#options = options;
    this.#apiKey = options.apiKey;
    this.#headers = Object.freeze({ ...options.headers });
    this.#baseUrl = options.baseUrl;
    this.maxOutputTokens = options.maxOutputTokens;
    this.temperature = options.temperature;
    this.topP = options.topP;
    this.stopSequences = options.stopSequences && Object.freeze([...options.stopSequences]);
    this.seed = options.seed;
    this.toolChoice = options.toolChoice;
    this.reasoning = options.reasoning;
    this.apiVersion = options.apiVersion;
    this.contextWindow = options.contextWindow;
    this.providerContinuation = options.providerContinuation ?? true;
    this.rawOutputCapture = options.rawOutputCapture ?? RawOutputCapturePolicy.ENABLED;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.responseTimeoutMs = options.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    Object.freeze(this);
  }

  static create(options: ModelConfigOptions = {}): ModelConfig {
    return new ModelConfig(options);
  }

  static of(apiKey: string): ModelConfig {
    return new ModelConfig({ apiKey });
  }

  /** A copy with some options changed; `undefined` values clear an option. */
  with(changes: Partial<ModelConfigOptions>): ModelConfig {
    return new ModelConfig({ ...this.#options, ...changes });
  }

  /** The secret API key. Read it only to put it on the wire. */
  get apiKey(): string | undefined {
    return this.#apiKey;
  }

  /** The configured headers, values included. Read them only to put them on the wire. */
  get headers(): Readonly<Record<string, string>> {
    return this.#headers;
  }

  get baseUrl(): string | undefined {
    return this.#baseUrl;
  }

  effectiveBaseUrl(defaultUrl: string): string {
    return this.baseUrl ?? defaultUrl;
  }

  /** Provider defaults overlaid with the configured headers; names compare case-insensitively. */
  effectiveHeaders(defaults: Readonly<Record<string, string>>): Record<string, string> {
    const overridden = new Set(Object.keys(this.#headers).map((name) => name.toLowerCase()));
    const merged: Record<string, string> = {};
    for (const [name, value] of Object.entries(defaults)) {
      if (!overridden.has(name.toLowerCase())) merged[name] = value;
    }
    return Object.assign(merged, this.#headers);
  }

  /** The config with every secret replaced by `<redacted>`; what logs and JSON see. */
  toJSON(): Record<string, unknown> {
    const headers: Record<string, string> = {};
    for (const name of Object.keys(this.#headers)) headers[name] = REDACTED;
    const shown: Record<string, unknown> = {
      apiKey: this.#apiKey === undefined ? undefined : REDACTED,
      baseUrl: this.baseUrl === undefined ? undefined : displayUrl(this.baseUrl),
      headers,
      maxOutputTokens: this.maxOutputTokens,
      temperature: this.temperature,
      topP: this.topP,
      stopSequences: this.stopSequences,
      seed: this.seed,
      toolChoice: this.toolChoice,
      reasoning: this.reasoning && Reasoning.describe(this.reasoning),
      apiVersion: this.apiVersion,
      contextWindow: this.contextWindow,
      providerContinuation: this.providerContinuation,
      rawOutputCapture: this.rawOutputCapture,
      connectTimeoutMs: this.connectTimeoutMs,
      responseTimeoutMs: this.responseTimeoutMs,
      streamIdleTimeoutMs: this.streamIdleTimeoutMs,
    };
    return Object.fromEntries(Object.entries(shown).filter(([, value]) => value !== undefined));
  }

  toString(): string {
    return `ModelConfig${JSON.stringify(this.toJSON())}`;
  }

  [inspectSymbol](): string {
    return this.toString();
  }
}

/** A base URL as it may be shown: credentials in its user-info and its query string are removed. */
function displayUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = REDACTED;
    parsed.password = '';
  }
  if (parsed.search !== '') parsed.search = `?${REDACTED}`;
  return parsed.toString();
}

function validate(options: ModelConfigOptions): void {
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string') {
    throw new InvalidArgumentError('apiKey must be a string');
  }
  if (options.baseUrl !== undefined && !URL.canParse(options.baseUrl)) {
    throw new InvalidArgumentError('baseUrl must be an absolute URL');
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (name.trim() === '') throw new InvalidArgumentError('header names must be non-blank');
    if (typeof value !== 'string')
      throw new InvalidArgumentError(`header '${name}' must have a string value`);
  }
  if (options.maxOutputTokens !== undefined)
    requirePositiveInteger(options.maxOutputTokens, 'maxOutputTokens');
  if (options.contextWindow !== undefined) requirePositiveInteger(options.contextWindow, 'contextWindow');
  if (
    options.temperature !== undefined &&
    !(options.temperature >= 0 && Number.isFinite(options.temperature))
  ) {
    throw new InvalidArgumentError(`temperature must be a finite number ≥ 0, got ${options.temperature}`);
  }
  if (options.topP !== undefined && !(options.topP > 0 && options.topP <= 1)) {
    throw new InvalidArgumentError(`topP must be in (0, 1], got ${options.topP}`);
  }
  if (options.seed !== undefined && !Number.isSafeInteger(options.seed)) {
    throw new InvalidArgumentError(`seed must be an integer, got ${options.seed}`);
  }
  for (const field of ['connectTimeoutMs', 'responseTimeoutMs', 'streamIdleTimeoutMs'] as const) {
    const value = options[field];
    if (value !== undefined) requirePositiveInteger(value, field);
  }
}
