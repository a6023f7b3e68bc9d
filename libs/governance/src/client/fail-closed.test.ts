/**
 * Answers the real service never gives: a closed port, a server that never answers, 5xx, HTML,
 * garbage JSON, an unknown decision, missing fields. Every one must block, none may throw.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GovernanceClient, MAX_TRACKED_APPROVALS } from './governance-client.js';
import { mayProceed, type EvaluateOutcome, type InstallScanOutcome } from './outcomes.js';

const TOKEN = 'adapter-secret-token-9f8e7d';
const EVALUATE = { tool: { name: 'send' } } as const;
const AUDIT = { evaluation_id: 'e1', status: 'success' } as const;
const INSTALL = { package: { name: 'left-pad' } } as const;
const RESOLVE = { resolution: 'approved', resolved_by: 'u' } as const;

type Reply = (req: IncomingMessage, res: ServerResponse) => void;

let reply: Reply;
let baseUrl: string;
const hits: string[] = [];
const server = createServer((req, res) => {
  hits.push(req.url ?? '');
  req.resume();
  req.on('end', () => reply(req, res));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  hits.length = 0;
});

function respond(status: number, body: string, contentType = 'application/json'): Reply {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  };
}

function json(status: number, body: unknown): Reply {
  return respond(status, JSON.stringify(body));
}

function client(timeoutMs = 2_000): GovernanceClient {
  return new GovernanceClient({ baseUrl, adapterToken: TOKEN, timeoutMs });
}

/** The blocking contract on the deciding routes. */
function expectBlocked(outcome: EvaluateOutcome | InstallScanOutcome, cause: string): void {
  expect(outcome).toMatchObject({ type: 'FailClosed', failClosed: true, decision: 'deny', cause });
  expect(mayProceed(outcome)).toBe(false);
  expect(JSON.stringify(outcome)).not.toContain(TOKEN);
}

/** All four routes against the current reply: deciding ones deny, the others are not ok. */
async function expectAllBlocked(cause: string, c = client()): Promise<void> {
  expectBlocked(await c.evaluate(EVALUATE), cause);
  expectBlocked(await c.installScan(INSTALL), cause);
  const audited = await c.audit(AUDIT);
  expect(audited).toMatchObject({ type: 'FailClosed', failClosed: true, ok: false, cause });
  const resolved = await c.resolveApproval('t1', RESOLVE);
  expect(resolved).toMatchObject({ type: 'FailClosed', failClosed: true, ok: false, cause });
  expect(mayProceed(resolved)).toBe(false);
}

const ALLOW = {
  evaluation_id: 'e1',
  decision: 'allow',
  reason: 'ok',
  matched_rule: null,
  matched_rule_index: null,
};

describe('fail closed on transport faults', () => {
  it('an unreachable port blocks every route', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const c = new GovernanceClient({ baseUrl: `http://127.0.0.1:${port}`, adapterToken: TOKEN });
    await expectAllBlocked('unreachable', c);
    expect((await c.evaluate(EVALUATE)).reason).toMatch(/^governance server unreachable: .*ECONNREFUSED/);
  });

  it('a server that never answers times out (headers never sent)', async () => {
    reply = () => undefined;
    const started = Date.now();
    const outcome = await client(150).evaluate(EVALUATE);
    expectBlocked(outcome, 'timeout');
    expect(outcome.reason).toBe('no answer from the governance server within 150 ms');
    expect(Date.now() - started).toBeLessThan(1_500);
    await expectAllBlocked('timeout', client(100));
  });

  it('a body that stalls after the headers times out too', async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"evaluation_id":"e1","decision":"allow"');
    };
    expectBlocked(await client(150).evaluate(EVALUATE), 'timeout');
  });

  it('a fetch that throws anything is unreachable, and the token is scrubbed from the reason', async () => {
    const leaky = new GovernanceClient({
      baseUrl,
      adapterToken: TOKEN,
      fetch: (_url, init) => {
        throw new Error(`boom with ${String((init?.headers as Record<string, string>).authorization)}`);
      },
    });
    const outcome = await leaky.evaluate(EVALUATE);
    expectBlocked(outcome, 'unreachable');
    expect(outcome.reason).toBe('governance server unreachable: boom with Bearer [redacted]');
    const stringly = new GovernanceClient({
      baseUrl,
      adapterToken: TOKEN,
      fetch: () => Promise.reject(new Error('x', { cause: 'not an object with a code' })),
    });
    expect((await stringly.audit(AUDIT)).ok).toBe(false);
    const weird = new GovernanceClient({
      baseUrl,
      adapterToken: TOKEN,
      fetch: () => Promise.reject('plain'),
    });
    expect((await weird.evaluate(EVALUATE)).reason).toBe('governance server unreachable: plain');
  });
});

describe('fail closed on bad answers', () => {
  it('500 Internal server error blocks every route and keeps the server code', async () => {
    reply = json(500, { error: 'Internal server error' });
    await expectAllBlocked('server_error');
    expect(await client().evaluate(EVALUATE)).toEqual({
      type: 'FailClosed',
      failClosed: true,
      decision: 'deny',
      cause: 'server_error',
      status: 500,
      error: 'Internal server error',
      reason: 'governance server error 500 (Internal server error)',
    });
  });

  it('503 evaluation_backlog_full and governance_unavailable block', async () => {
    reply = json(503, { error: 'evaluation_backlog_full' });
    expect(await client().evaluate(EVALUATE)).toMatchObject({
      cause: 'server_error',
      status: 503,
      error: 'evaluation_backlog_full',
      decision: 'deny',
    });
    reply = json(503, { error: 'governance_unavailable' });
    await expectAllBlocked('server_error');
  });

  it('502 with an HTML body blocks', async () => {
    reply = respond(502, '<html><body>Bad Gateway</body></html>', 'text/html');
    await expectAllBlocked('server_error');
    const outcome = await client().evaluate(EVALUATE);
    expect(outcome).toMatchObject({ status: 502, reason: 'governance server error 502' });
    expect(outcome).not.toHaveProperty('error');
  });

  it('garbage JSON on 200 blocks as invalid_body', async () => {
    reply = respond(200, '{"decision":"allow",');
    await expectAllBlocked('invalid_body');
    reply = respond(201, 'not json at all');
    expect(await client().audit(AUDIT)).toMatchObject({ cause: 'invalid_body', status: 201, ok: false });
  });

  it('an unknown decision ("escalate") is a deny that keeps its evaluation id', async () => {
    reply = json(200, { ...ALLOW, decision: 'escalate' });
    const outcome = await client().evaluate(EVALUATE);
    expect(outcome).toEqual({
      type: 'UnrecognizedDecision',
      failClosed: true,
      decision: 'deny',
      receivedDecision: 'escalate',
      evaluationId: 'e1',
      reason: 'unrecognized decision "escalate" treated as deny',
    });
    expect(mayProceed(outcome)).toBe(false);
    // Case and whitespace variants are unknown too: the enum is exact.
    for (const decision of ['ALLOW', 'allow ', 'modify', 'proceed']) {
      reply = json(200, { ...ALLOW, decision });
      expect(mayProceed(await client().evaluate(EVALUATE))).toBe(false);
    }
    // /install-scan's vocabulary is allow | deny only.
    reply = json(200, { ...ALLOW, decision: 'require_approval' });
    const install = await client().installScan(INSTALL);
    expect(install).toMatchObject({
      type: 'UnrecognizedDecision',
      decision: 'deny',
      receivedDecision: 'require_approval',
    });
    expect(mayProceed(install)).toBe(false);
  });

  it('a missing or mistyped field blocks as invalid_shape, even next to decision "allow"', async () => {
    const cases: [unknown, string][] = [
      [{ ...ALLOW, reason: undefined }, 'reason'],
      [{ ...ALLOW, evaluation_id: undefined }, 'evaluation_id'],
      [{ ...ALLOW, evaluation_id: '' }, 'evaluation_id'],
      [{ ...ALLOW, decision: 1 }, 'decision'],
      [{ ...ALLOW, matched_rule_index: 'first' }, 'matched_rule_index'],
      [{ ...ALLOW, limits: { rate: { current: '1' } } }, 'limits.rate.current'],
      [{ ...ALLOW, decision: 'require_approval' }, 'approval'],
      [[ALLOW], '(body)'],
      [null, '(body)'],
    ];
    for (const [body, path] of cases) {
      reply = json(200, body);
      const outcome = await client().evaluate(EVALUATE);
      expectBlocked(outcome, 'invalid_shape');
      expect(outcome.reason).toContain(`response does not match the expected shape at ${path}:`);
    }
    reply = json(200, { ...ALLOW, matched_rule: undefined });
    expectBlocked(await client().installScan(INSTALL), 'invalid_shape');
    reply = json(201, { ok: true });
    expect(await client().audit(AUDIT)).toMatchObject({ cause: 'invalid_shape', ok: false });
    reply = json(200, { ok: true, audit_record_id: 'a1' }); // a 200 must be a replay
    expect(await client().audit(AUDIT)).toMatchObject({ cause: 'invalid_shape', ok: false });
    reply = json(200, { ok: false });
    const resolved = await client().resolveApproval('t1', RESOLVE);
    expect(resolved).toMatchObject({ cause: 'invalid_shape', ok: false });
    expect(mayProceed(resolved)).toBe(false);
  });

  it('statuses a route never answers block as unexpected_status; redirects are not followed', async () => {
    reply = (_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    };
    await expectAllBlocked('unexpected_status');
    expect(hits.every((path) => path !== '/elsewhere')).toBe(true);
    reply = json(201, ALLOW);
    expectBlocked(await client().evaluate(EVALUATE), 'unexpected_status');
    expectBlocked(await client().installScan(INSTALL), 'unexpected_status');
    expect(await client().resolveApproval('t1', RESOLVE)).toMatchObject({
      cause: 'unexpected_status',
      ok: false,
    });
    reply = json(202, { ok: true, audit_record_id: 'a1' });
    expect(await client().audit(AUDIT)).toMatchObject({ cause: 'unexpected_status', status: 202, ok: false });
  });

  it('a 4xx without an error code blocks as invalid_shape or invalid_body', async () => {
    reply = json(400, { message: 'bad' });
    expectBlocked(await client().evaluate(EVALUATE), 'invalid_shape');
    reply = respond(404, '<h1>Not Found</h1>', 'text/html');
    expectBlocked(await client().evaluate(EVALUATE), 'invalid_body');
  });

  it('a 403 (an Origin header reached the server) is a typed rejection that blocks', async () => {
    reply = json(403, { error: 'origin_forbidden' });
    const outcome = await client().evaluate(EVALUATE);
    expect(outcome).toMatchObject({
      type: 'Rejected',
      status: 403,
      error: 'origin_forbidden',
      decision: 'deny',
    });
    expect(mayProceed(outcome)).toBe(false);
  });
});

describe('client-side guards', () => {
  it('an unserializable request never reaches the wire and blocks', async () => {
    const c = client();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expectBlocked(await c.evaluate({ tool: { name: 't' }, arguments: circular }), 'invalid_request');
    expectBlocked(await c.evaluate({ tool: { name: 't' }, arguments: { n: 1n } }), 'invalid_request');
    expectBlocked(await c.evaluate(undefined as never), 'invalid_request');
    expect(await c.resolveApproval('', RESOLVE)).toMatchObject({ cause: 'invalid_request', ok: false });
    expect(hits).toEqual([]);
  });

  it('remembers at most MAX_TRACKED_APPROVALS unresolved approvals, forgetting the oldest', async () => {
    let n = 0;
    const fake = new GovernanceClient({
      baseUrl,
      adapterToken: TOKEN,
      fetch: (url) => {
        if (String(url).endsWith('/audit')) {
          return Promise.resolve(Response.json({ error: 'approval_unresolved' }, { status: 409 }));
        }
        n += 1;
        return Promise.resolve(
          Response.json({
            ...ALLOW,
            evaluation_id: `e${n}`,
            decision: 'require_approval',
            approval: { id: `t${n}`, timeout_ms: 1000, resolve_path: `/approval/t${n}/resolve` },
          }),
        );
      },
    });
    for (let i = 0; i <= MAX_TRACKED_APPROVALS; i += 1) await fake.evaluate(EVALUATE);
    // e1 was evicted: the client lets the audit through and the server's own guard answers.
    expect(await fake.audit({ evaluation_id: 'e1', status: 'success' })).toMatchObject({
      type: 'Rejected',
      status: 409,
      error: 'approval_unresolved',
    });
    expect(await fake.audit({ evaluation_id: 'e2', status: 'success' })).toMatchObject({
      type: 'Refused',
      ticketId: 't2',
    });
  }, 30_000);

  it('never exposes the token through inspection or serialization', () => {
    const c = client();
    expect(inspect(c, { showHidden: true, depth: 5 })).not.toContain(TOKEN);
    expect(JSON.stringify(c)).not.toContain(TOKEN);
  });

  it('rejects a malformed configuration at construction without naming the token', () => {
    const bad = [
      { baseUrl: 'not a url', adapterToken: TOKEN },
      { baseUrl: 'ftp://127.0.0.1', adapterToken: TOKEN },
      { baseUrl, adapterToken: '' },
      { baseUrl, adapterToken: `${TOKEN}\r\nOrigin: x` },
      { baseUrl, adapterToken: TOKEN, timeoutMs: 0 },
      { baseUrl, adapterToken: TOKEN, timeoutMs: 1.5 },
    ];
    for (const options of bad) {
      expect(() => new GovernanceClient(options)).toThrow(TypeError);
      try {
        new GovernanceClient(options);
      } catch (error) {
        expect(String(error)).not.toContain(TOKEN);
      }
    }
  });

  it('keeps a base path prefix', async () => {
    reply = json(200, ALLOW);
    const prefixed = new GovernanceClient({ baseUrl: `${baseUrl}/helio//`, adapterToken: TOKEN });
    expect(mayProceed(await prefixed.evaluate(EVALUATE))).toBe(true);
    expect(hits).toEqual(['/helio/evaluate']);
  });

  it('mayProceed is false for nothing at all', () => {
    expect(mayProceed(undefined)).toBe(false);
    expect(mayProceed(null)).toBe(false);
  });
});
