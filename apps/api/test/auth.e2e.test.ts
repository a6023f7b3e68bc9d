/**
 * Who may call the runtime API, on the real app: static tokens, bearer JWTs and a trusted proxy side by
 * side; every failure a 401 carrying the challenge; another principal's session the same 404 as an
 * unknown id on every route; an expiring or revoked identity closing its stream and answering its poll
 * and upload 401; no authenticator on a non-loopback bind refusing to start.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '@helios/testing';
import {
  type Authentication,
  type AuthenticationRequest,
  type Authenticator,
} from '../src/auth/authentication.js';
import { ConfigError } from '../src/config/config-error.js';
import { parseConfig } from '../src/config/load-config.js';
import { startServer } from '../src/server.js';
import { parseResponse, rawConnection } from './support/raw-http.js';
import { type SessionsApp, startSessionsApp } from './support/sessions-app.js';

const ALICE = 'alice-token-0123456789';
const BOB = 'bob-token-0123456789ab'; // same tenant, another subject
const EVE = 'eve-token-0123456789ab'; // same subject, another tenant
const SECRET = 'jwt-shared-secret-0123456789abcdef-0123';
const CHALLENGE = 'Bearer realm="helios", TrustedProxy realm="helios"';

let app: SessionsApp;

beforeAll(async () => {
  app = await startSessionsApp({
    logLevel: 'info',
    yaml:
      'auth:\n  tokens:\n' +
      `    - { token: "\${ALICE_TOKEN}", tenant: acme, subject: alice, roles: [admin] }\n` +
      `    - { token: ${BOB}, tenant: acme, subject: bob }\n` +
      `    - { token: ${EVE}, tenant: other, subject: alice }\n` +
      `  jwt: { issuer: https://issuer.test, audience: helios, secret: "\${JWT_SECRET}" }\n` +
      '  trustedProxy: { addresses: [127.0.0.2] }\n' +
      'agents:\n  quick:\n    model: scripted/quick\n',
    env: { ALICE_TOKEN: ALICE, JWT_SECRET: SECRET },
    runtime: { scriptedModels: { quick: () => new ScriptedModel().thenText('ok') } },
  });
});

afterAll(async () => {
  await app?.close();
});

function jwt(
  claims: Record<string, unknown>,
  options: { secret?: string; expiresIn?: number | string } = {},
) {
  return new SignJWT({ tenant: 'acme', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('https://issuer.test')
    .setAudience('helios')
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
}

async function createAs(token: string): Promise<string> {
  const created = await app.request('POST', '/v1/sessions', { token, body: { agent: 'quick' } });
  expect(created.status).toBe(201);
  return created.body.sessionId as string;
}

describe('authentication', () => {
  it('answers every missing, malformed, unknown, expired or forged credential 401 with the challenge', async () => {
    const expired = await jwt({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    const credentials: Record<string, Record<string, string>> = {
      missing: {},
      basic: { authorization: 'Basic YWxpY2U6cGFzcw==' },
      'empty bearer': { authorization: 'Bearer ' },
      'two words': { authorization: `Bearer ${ALICE} x` },
      unknown: { authorization: 'Bearer not-a-configured-token-000' },
      'a prefix of a token': { authorization: `Bearer ${ALICE.slice(0, -1)}` },
      expired: { authorization: `Bearer ${expired}` },
      forged: { authorization: `Bearer ${await jwt({}, { secret: 'another-secret-0123456789abcdef-xyz' })}` },
      'wrong audience': {
        authorization: `Bearer ${await new SignJWT({ tenant: 'acme' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('https://issuer.test').setAudience('elsewhere').setSubject('alice').setExpirationTime('5m').sign(new TextEncoder().encode(SECRET))}`,
      },
      'no tenant claim': { authorization: `Bearer ${await jwt({ tenant: undefined })}` },
      'unsigned (alg none)': {
        authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: 'https://issuer.test', aud: 'helios', sub: 'alice', tenant: 'acme', exp: 9e9 })).toString('base64url')}.`,
      },
      'proxy headers from an untrusted address': {
        'x-authenticated-tenant': 'acme',
        'x-authenticated-subject': 'alice',
      },
    };
    for (const [name, headers] of Object.entries(credentials)) {
      const reply = await app.request('GET', '/v1/sessions', { headers });
      expect({
        name,
        status: reply.status,
        body: reply.body,
        challenge: reply.headers['www-authenticate'],
      }).toEqual({
        name,
        status: 401,
        body: { error: 'UNAUTHENTICATED', message: 'a valid credential is required' },
        challenge: CHALLENGE,
      });
      expect(reply.headers.connection).toBe('close');
    }
  });

  it('accepts a static token, a JWT and a trusted proxy; one principal is one principal whichever proves it', async () => {
    const id = await createAs(ALICE);
    const viaJwt = await app.request('GET', '/v1/sessions', { token: await jwt({}) });
    expect(viaJwt.status).toBe(200);
    expect(viaJwt.body.map((s: { sessionId: string }) => s.sessionId)).toContain(id);
    const viaProxy = await app.request('GET', `/v1/sessions/${id}/questions`, {
      localAddress: '127.0.0.2',
      headers: { 'x-authenticated-tenant': 'acme', 'x-authenticated-subject': 'alice' },
    });
    expect(viaProxy.status).toBe(200);
    const twice = await app.request('GET', '/v1/sessions', {
      localAddress: '127.0.0.2',
      headers: { 'x-authenticated-tenant': ['acme', 'other'], 'x-authenticated-subject': 'alice' },
    });
    expect(twice.status).toBe(401); // a client's copy the proxy failed to strip: refused, not joined
  });

  it('never writes a credential to the log', async () => {
    await app.request('GET', '/v1/sessions', { token: ALICE });
    await app.request('GET', '/v1/sessions', { token: 'wrong-token-but-secret-0001' });
    const text = app.logs.join('');
    expect(text).toContain('/v1/sessions');
    for (const secret of [ALICE, BOB, SECRET, 'wrong-token-but-secret-0001'])
      expect(text).not.toContain(secret);
  });
});

describe('isolation', () => {
  it("answers another principal's session the same 404 as an unknown id, on every route", async () => {
    const id = await createAs(ALICE);
    await app.request('POST', `/v1/sessions/${id}/messages`, { token: ALICE, body: { text: 'hi' } });
    const routes = (target: string): [string, string, unknown?][] => [
      ['POST', `/v1/sessions/${target}/messages`, { text: 'x' }],
      ['POST', `/v1/sessions/${target}/interrupt`],
      ['GET', `/v1/sessions/${target}/events`],
      ['GET', `/v1/sessions/${target}/result?timeout=0`],
      ['GET', `/v1/sessions/${target}/questions`],
      ['POST', `/v1/sessions/${target}/questions/perm-1`, { selectedLabels: ['Allow'] }],
      ['DELETE', `/v1/sessions/${target}`],
    ];
    for (const token of [BOB, EVE]) {
      for (const target of [id, 'sess-never-was']) {
        for (const [method, path, body] of routes(target)) {
          const reply = await app.request(method, path, body === undefined ? { token } : { token, body });
          expect({ path, status: reply.status, text: reply.text }).toEqual({
            path,
            status: 404,
            text: '{"error":"SESSION_NOT_FOUND","message":"session not found"}',
          });
        }
      }
      const theirs = await app.request('GET', '/v1/sessions', { token });
      expect(theirs.body.map((s: { sessionId: string }) => s.sessionId)).not.toContain(id);
      // Naming alice's id to reopen it reaches nothing of hers either.
      const reopen = await app.request('POST', '/v1/sessions', {
        token,
        body: { agent: 'quick', sessionId: id },
      });
      expect(reopen.status).toBe(404);
    }
    // Still alice's, untouched.
    const result = await app.request('GET', `/v1/sessions/${id}/result?timeout=5`, { token: ALICE });
    expect(result.body.type).toBe('Success');
  });
});

describe('an identity that expires', () => {
  it('closes its open event stream and answers its waiting poll 401', async () => {
    const id = await createAs(ALICE);
    const shortLived = await jwt({}, { expiresIn: Math.floor(Date.now() / 1000) + 2 });
    const stream = await app.events(id, { token: shortLived });
    expect(stream.status).toBe(200);
    const poll = app.request('GET', `/v1/sessions/${id}/result?timeout=30`, { token: shortLived });
    const started = Date.now();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(4_000);
    const answered = await poll;
    expect(answered.status).toBe(401);
    expect(answered.headers['www-authenticate']).toBe(CHALLENGE);
    // The token itself is now refused at the door.
    expect((await app.request('GET', '/v1/sessions', { token: shortLived })).status).toBe(401);
  });
});

describe('a server reachable from other machines', () => {
  it('refuses to start without an authenticator', async () => {
    const config = parseConfig('server:\n  host: 0.0.0.0\n  port: 0\nlog:\n  level: silent\n');
    const failure = await startServer(config, {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).issues).toEqual([
      {
        path: 'auth',
        message:
          'required when server.host (0.0.0.0) is not a loopback address: configure auth.tokens, auth.jwt or auth.trustedProxy',
      },
    ]);
  });
});

/** A deployer's own verifier: tokens it can revoke one by one (the Authenticator plug-in point). */
class RevocableTokens implements Authenticator {
  readonly challenge = 'Bearer realm="revocable"';
  readonly #tokens = new Map<string, { subject: string; revoked: AbortController }>();

  issue(token: string, subject: string): string {
    this.#tokens.set(token, { subject, revoked: new AbortController() });
    return token;
  }

  revoke(token: string): void {
    this.#tokens.get(token)?.revoked.abort();
  }

  authenticate(request: AuthenticationRequest): Promise<Authentication | undefined> {
    const token = /^Bearer (\S+)$/.exec(String(request.headers.authorization))?.[1];
    const entry = token === undefined ? undefined : this.#tokens.get(token);
    if (entry === undefined || entry.revoked.signal.aborted) return Promise.resolve(undefined);
    return Promise.resolve({
      principal: { tenant: 't', subject: entry.subject },
      roles: [],
      revoked: entry.revoked.signal,
    });
  }
}

describe('an identity that is revoked', () => {
  const tokens = new RevocableTokens();
  let revocable: SessionsApp;
  const KEEP = tokens.issue('carol-keeps-this-one', 'carol');

  beforeAll(async () => {
    revocable = await startSessionsApp({
      yaml: 'agents:\n  quick:\n    model: scripted/quick\n  revoking:\n    model: scripted/revoking\n',
      runtime: {
        authenticator: tokens,
        scriptedModels: {
          quick: () => new ScriptedModel().thenText('ok'),
          // Built while the create is under way: the caller's credential is revoked right then.
          revoking: () => {
            tokens.revoke('carol-revoked-while-creating');
            return new ScriptedModel().thenText('never');
          },
        },
      },
    });
  });

  afterAll(async () => {
    await revocable?.close();
  });

  async function session(): Promise<string> {
    return (await revocable.request('POST', '/v1/sessions', { token: KEEP, body: { agent: 'quick' } })).body
      .sessionId as string;
  }

  it('closes its open event stream and answers its waiting poll 401', async () => {
    const id = await session();
    const token = tokens.issue('carol-stream-token', 'carol');
    const stream = await revocable.events(id, { token });
    const poll = revocable.request('GET', `/v1/sessions/${id}/result?timeout=30`, { token });
    await new Promise((resolve) => setTimeout(resolve, 100));
    tokens.revoke(token);
    await stream.ended;
    const answered = await poll;
    expect(answered).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED' } });
    expect(answered.headers['www-authenticate']).toBe('Bearer realm="revocable"');
  });

  it('answers a message still uploading 401, and the message does nothing', async () => {
    const id = await session();
    const token = tokens.issue('carol-upload-token', 'carol');
    const body = JSON.stringify({ text: 'this must never reach the session' });
    const connection = await rawConnection(
      revocable.url,
      `POST /v1/sessions/${id}/messages HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\n` +
        `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    tokens.revoke(token);
    const answer = parseResponse(await connection.closed);
    expect(answer).toEqual({
      status: 401,
      body: '{"error":"UNAUTHENTICATED","message":"a valid credential is required"}',
    });
    expect(
      (await revocable.request('GET', `/v1/sessions/${id}/result?timeout=0`, { token: KEEP })).status,
    ).toBe(204);
    const [summary] = (await revocable.request('GET', '/v1/sessions', { token: KEEP })).body.filter(
      (s: { sessionId: string }) => s.sessionId === id,
    );
    expect(summary).toMatchObject({ status: 'idle', turns: 0 });
  });

  it('answers a create whose session was being opened 401, and nothing is created', async () => {
    const token = tokens.issue('carol-revoked-while-creating', 'dave');
    const before = tokens.issue('dave-other-token-000', 'dave');
    const created = await revocable.request('POST', '/v1/sessions', { token, body: { agent: 'revoking' } });
    expect(created).toMatchObject({ status: 401, body: { error: 'UNAUTHENTICATED' } });
    expect(created.headers['www-authenticate']).toBe('Bearer realm="revocable"');
    expect((await revocable.request('GET', '/v1/sessions', { token: before })).body).toEqual([]);
  });
});
