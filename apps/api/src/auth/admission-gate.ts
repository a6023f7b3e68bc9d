/**
 * Every runtime request is admitted before any work, in this order, each refusal answered at once with
 * its fixed body and `Connection: close` (the body, if any, is never read):
 *   1. the server-wide in-flight cap (503, no Retry-After: the whole server is busy);
 *   2. a body declared over `sessions.maxRequestBytes` (413, unread);
 *   3. authentication (401 with the authenticator's challenge);
 *   4. the principal's in-flight cap (429, Retry-After: 5) — open event streams and waiting polls count
 *      until their response closes.
 * A body is then checked as it streams: past the limit (a chunked one) 413, and if the identity expires
 * or is revoked mid-upload, 401; the handler never sees either. Fastify hooks, not a Nest guard: guards
 * run after the body has been parsed.
 */
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type HeliosConfig } from '../config/config.schema.js';
import { HELIOS_CONFIG } from '../config/config.tokens.js';
import { type Authenticator, plainAddress } from './authentication.js';
import { AUTHENTICATOR } from './auth.tokens.js';
import { isGatedRoute } from './gated-routes.js';
import { attachIdentity, Identity, identityOf } from './identity.js';
import { RuntimeRefusal, sendRefusal, wasRefused } from './refusals.js';
import { UploadGuard } from './upload-guard.js';

@Injectable()
export class AdmissionGate implements OnModuleInit {
  #inFlight = 0;
  readonly #perPrincipal = new Map<string, number>();
  /** Per connection, the admission of its latest request (pipelined requests wait for it). */
  readonly #admitting = new WeakMap<object, Promise<void>>();

  constructor(
    @Inject(HELIOS_CONFIG) private readonly config: HeliosConfig,
    @Inject(AUTHENTICATOR) private readonly authenticator: Authenticator,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Hooks are linked to routes when Fastify gets ready (at listen), so adding them here covers all. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', (request, reply) => this.#admit(request, reply));
    fastify.addHook('preParsing', (request, reply, payload) =>
      Promise.resolve(this.#guardBody(request, reply, payload)),
    );
  }

  /** Runtime requests in flight now (all principals). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests `principalKey` has in flight now. */
  inFlightOf(principalKey: string): number {
    return this.#perPrincipal.get(principalKey) ?? 0;
  }

  /**
   * Requests pipelined on one connection are admitted one after the other, so a refusal is decided
   * (and the connection marked) before anything behind it is looked at: nothing after it is served.
   */
  async #admit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (!isGatedRoute(request)) return undefined;
    const socket = request.raw.socket;
    const previous = this.#admitting.get(socket);
    let decided!: () => void;
    const mine = new Promise<void>((resolve) => (decided = resolve));
    this.#admitting.set(socket, mine);
    try {
      if (previous) await previous;
      return await this.#decide(request, reply);
    } finally {
      decided();
      if (this.#admitting.get(socket) === mine) this.#admitting.delete(socket);
    }
  }

  async #decide(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const limits = this.config.sessions;
    if (wasRefused(request.raw.socket)) {
      reply.hijack(); // pipelined behind a refusal: never served, nothing written
      request.raw.socket.destroy();
      return reply;
    }
    if (this.#inFlight >= limits.maxConcurrentRequests) {
      return sendRefusal(reply, new RuntimeRefusal('SERVER_BUSY'));
    }
    this.#inFlight += 1;
    reply.raw.once('close', () => (this.#inFlight -= 1));
    if (declaredLength(request) > limits.maxRequestBytes) {
      return sendRefusal(reply, new RuntimeRefusal('REQUEST_TOO_LARGE'));
    }
    const authentication = await this.authenticator.authenticate({
      headers: request.headers,
      headersDistinct: request.raw.headersDistinct,
      remoteAddress: plainAddress(request.raw.socket.remoteAddress),
    });
    const identity = authentication ? new Identity(authentication) : undefined;
    if (!identity?.valid) {
      return sendRefusal(reply, RuntimeRefusal.unauthenticated(this.authenticator.challenge));
    }
    const held = this.inFlightOf(identity.key);
    if (held >= limits.maxConcurrentRequestsPerPrincipal) {
      return sendRefusal(reply, RuntimeRefusal.retryLater('TOO_MANY_REQUESTS'));
    }
    this.#perPrincipal.set(identity.key, held + 1);
    reply.raw.once('close', () => this.#release(identity.key));
    attachIdentity(request.raw, identity);
    return undefined;
  }

  #release(key: string): void {
    const held = (this.#perPrincipal.get(key) ?? 1) - 1;
    if (held <= 0) this.#perPrincipal.delete(key);
    else this.#perPrincipal.set(key, held);
  }

  #guardBody(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: NodeJS.ReadableStream,
  ): NodeJS.ReadableStream {
    const identity = identityOf(request.raw);
    if (identity === undefined || !hasBody(request)) return payload;
    const guard = new UploadGuard(this.config.sessions.maxRequestBytes, () => {
      void reply.header('connection', 'close');
      return new RuntimeRefusal('REQUEST_TOO_LARGE');
    });
    const stopWatching = identity.whenLost(() => {
      void reply.headers({ 'www-authenticate': this.authenticator.challenge, connection: 'close' });
      guard.refuse(RuntimeRefusal.unauthenticated(this.authenticator.challenge));
    });
    guard.once('close', stopWatching);
    guard.once('end', stopWatching);
    payload.on('error', (error: Error) => guard.destroy(error));
    return payload.pipe(guard);
  }
}

function declaredLength(request: FastifyRequest): number {
  const header = request.headers['content-length'];
  return header === undefined ? 0 : Number(header);
}

function hasBody(request: FastifyRequest): boolean {
  return request.headers['transfer-encoding'] !== undefined || declaredLength(request) > 0;
}
