/**
 * The models this process resolved, by `provider/model` name (`@helios/providers`' `resolveModel`:
 * keys and base URLs from the options or the environment; a missing one fails here, naming the
 * variable). A Model owns its HTTP pool, and whoever creates it closes it: the registry closes every
 * model it made at shutdown. Sessions (the runtime issue) take their models from here.
 */
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type Model } from '@helios/core';
import { resolveModel, type ResolveModelOptions } from '@helios/providers';

@Injectable()
export class ModelRegistry implements OnApplicationShutdown {
  readonly #made: Model[] = [];

  /** A new Model for `name` (`anthropic/…`, `openai/…`, `gemini/…`, `openai-compatible/…`). */
  resolve(name: string, options: ResolveModelOptions = {}): Model {
    const model = resolveModel(name, options);
    this.#made.push(model);
    return model;
  }

  async onApplicationShutdown(): Promise<void> {
    const made = this.#made.splice(0);
    await Promise.allSettled(made.map((model) => model.close()));
  }
}
