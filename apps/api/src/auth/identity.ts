/**
 * One request's authenticated caller: the Authentication plus the two ways it can stop being valid
 * (its credential expires, or is revoked). Long operations (event streams, long polls, uploads, a
 * create whose options are being built) watch it and stop with 401 when it is lost.
 */
import { type IncomingMessage } from 'node:http';
import { type Authentication, type Principal, principalKey } from './authentication.js';

/** setTimeout's ceiling (about 24.8 days); a longer lifetime is re-armed when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647;

export class Identity {
  readonly key: string;

  constructor(readonly authentication: Authentication) {
    this.key = principalKey(authentication.principal);
  }

  get principal(): Principal {
    return this.authentication.principal;
  }

  /** Not expired and not revoked, now. */
  get valid(): boolean {
    const { expiresAt, revoked } = this.authentication;
    return !(revoked?.aborted ?? false) && (expiresAt === undefined || Date.now() < expiresAt);
  }

  /** Calls `lost` once, when the credential expires or is revoked (at once if it already is). */
  whenLost(lost: () => void): () => void {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const { expiresAt, revoked } = this.authentication;
    const fire = () => {
      if (done) return;
      dispose();
      lost();
    };
    const arm = () => {
      if (expiresAt === undefined) return;
      const left = expiresAt - Date.now();
      if (left <= 0) return fire();
      timer = setTimeout(left > MAX_TIMER_MS ? arm : fire, Math.min(left, MAX_TIMER_MS));
    };
    const dispose = () => {
      done = true;
      clearTimeout(timer);
      revoked?.removeEventListener('abort', fire);
    };
    if (!this.valid) {
      queueMicrotask(fire);
      return dispose;
    }
    revoked?.addEventListener('abort', fire, { once: true });
    arm();
    return dispose;
  }

  /** An AbortSignal that aborts when the identity is lost; `release` stops watching. */
  watch(): { readonly signal: AbortSignal; readonly release: () => void } {
    const controller = new AbortController();
    const release = this.whenLost(() => controller.abort(new Error('identity lost')));
    return { signal: controller.signal, release };
  }
}

const IDENTITY = Symbol('helios.identity');

type WithIdentity = IncomingMessage & { [IDENTITY]?: Identity };

/** Attached by the admission gate once the request authenticated. */
export function attachIdentity(request: IncomingMessage, identity: Identity): void {
  (request as WithIdentity)[IDENTITY] = identity;
}

export function identityOf(request: IncomingMessage): Identity | undefined {
  return (request as WithIdentity)[IDENTITY];
}
