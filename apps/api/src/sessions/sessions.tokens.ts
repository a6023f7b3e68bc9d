import { type Model } from '@helios/core';

/** In-process options of the sessions module (the process entry point passes none). */
export interface SessionsModuleOptions {
  /**
   * Models for agents whose `model` is `scripted/<name>`, one made per session (a scripted model plays
   * its script once). Tests and embedders use these; `scripted/demo` is always the built-in demo.
   */
  readonly scriptedModels?: Readonly<Record<string, (sessionId: string) => Model>>;
}

export const SESSIONS_OPTIONS = Symbol('SESSIONS_OPTIONS');
