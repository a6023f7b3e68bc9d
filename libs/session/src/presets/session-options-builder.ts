/**
 * A fluent way to assemble `SessionOptions`, the one the presets return. `withTool` appends,
 * `withTools` replaces (likewise `withHook`/`withHooks`); a memory backend brings its MemoryRead and
 * MemoryWrite tools, added after the others at `build()`. The builder does not check tool names:
 * two tools with one name make `AgentSession.open` fail.
 */
import { InvalidArgumentError, type Model } from '@helios/core';
import { type Hook } from '../hooks/hook.js';
import { type MemoryBackend } from '../memory/file-system-memory-backend.js';
import { memoryToolBindings } from '../memory/memory-tools.js';
import { type SessionOptions } from '../options.js';
import { type Permission } from '../permissions/permission.js';
import { type ToolBinding } from '../tools/tool-binding.js';
import { type SessionStore } from '../store/session-store.js';

/** Options the builder sets with its own methods; `with(...)` takes every other field. */
type OtherOptions = Omit<SessionOptions, 'model' | 'tools' | 'hooks'>;

export class SessionOptionsBuilder {
  #model: Model;
  #tools: ToolBinding[] = [];
  #hooks: Hook[] = [];
  #memoryBackend: MemoryBackend | undefined;
  #other: OtherOptions = {};

  constructor(model: Model) {
    this.#model = requireModel(model);
  }

  /** A builder holding everything `options` holds (the reference's `toBuilder()`). */
  static from(options: SessionOptions): SessionOptionsBuilder {
    const { model, tools = [], hooks = [], ...other } = options;
    return new SessionOptionsBuilder(model).withTools(tools).withHooks(hooks).with(other);
  }

  get model(): Model {
    return this.#model;
  }

  /** The tools added so far, without the memory backend's (those are added at `build()`). */
  get tools(): readonly ToolBinding[] {
    return Object.freeze([...this.#tools]);
  }

  get memoryBackend(): MemoryBackend | undefined {
    return this.#memoryBackend;
  }

  withModel(model: Model): this {
    this.#model = requireModel(model);
    return this;
  }

  /** Appends one tool. */
  withTool(binding: ToolBinding): this {
    this.#tools.push(binding);
    return this;
  }

  /** Replaces every tool added so far (not the memory backend's). */
  withTools(bindings: readonly ToolBinding[]): this {
    this.#tools = [...bindings];
    return this;
  }

  /** Appends one hook. */
  withHook(hook: Hook): this {
    this.#hooks.push(hook);
    return this;
  }

  /** Replaces every hook added so far. */
  withHooks(hooks: readonly Hook[]): this {
    this.#hooks = [...hooks];
    return this;
  }

  withPermission(permission: Permission): this {
    return this.with({ permission });
  }

  withSystemPrompt(systemPrompt: string): this {
    return this.with({ systemPrompt });
  }

  withSessionId(sessionId: string): this {
    return this.with({ sessionId });
  }

  /** Keeps the conversation in `store` under the session id: open loads it, each turn appends. */
  withStore(store: SessionStore): this {
    return this.with({ store });
  }

  /** Adds the model's AskUserQuestion tool. */
  withAskUserQuestion(): this {
    return this.with({ askUserQuestion: true });
  }

  /** MemoryRead and MemoryWrite on `backend` are added to the tools at `build()`; `undefined` removes them. */
  withMemoryBackend(backend: MemoryBackend | undefined): this {
    this.#memoryBackend = backend;
    return this;
  }

  /** Sets any other option fields; a field given as `undefined` goes back to its default. */
  with(options: OtherOptions): this {
    this.#other = { ...this.#other, ...options };
    return this;
  }

  /**
   * Fresh options each call. Sessions opened from one built object share its default secret registry;
   * two `build()` results do not.
   */
  build(): SessionOptions {
    const memory = this.#memoryBackend === undefined ? [] : memoryToolBindings(this.#memoryBackend);
    return Object.freeze({
      ...this.#other,
      model: this.#model,
      tools: Object.freeze([...this.#tools, ...memory]),
      hooks: Object.freeze([...this.#hooks]),
    });
  }
}

function requireModel(model: Model): Model {
  if (model === null || typeof model !== 'object') {
    throw new InvalidArgumentError('session options need a model');
  }
  return model;
}
