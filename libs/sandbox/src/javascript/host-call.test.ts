import { SecretRegistry } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { HostFunction, HostFunctionRegistry, HostParameter } from '../host/host-function.js';
import { answerHostCall } from './host-call.js';

const secrets = new SecretRegistry();
secrets.register('API_KEY', 'sk-test-0123456789');

function settings(fn: HostFunction) {
  return { registry: new HostFunctionRegistry([fn]), sessionId: 's1', redactor: () => secrets.redactor() };
}

const echo = HostFunction(
  'echo',
  'Echo',
  [HostParameter.required('value', 'object', '')],
  (args) => args['value'],
);
const limits = { timeoutMs: 1000, signal: new AbortController().signal };
const call = (args: unknown, name = 'echo') => ({ id: 'sub-1', name, args });

describe('answerHostCall', () => {
  it('answers a registered call with its JSON result', async () => {
    const answer = await answerHostCall(settings(echo), call({ value: { a: [1, 'x'] } }), limits);
    expect(answer).toBe('{"jsonrpc":"2.0","id":"sub-1","result":{"a":[1,"x"]}}');
    const returnsUndefined = HostFunction('nothing', 'd', [], () => undefined);
    expect(
      JSON.parse(await answerHostCall(settings(returnsUndefined), call({}, 'nothing'), limits)),
    ).toMatchObject({ result: null });
  });

  it('refuses unregistered names and arguments that fail the declared parameters, running nothing', async () => {
    expect(JSON.parse(await answerHostCall(settings(echo), call({}, 'other'), limits))).toEqual({
      jsonrpc: '2.0',
      id: 'sub-1',
      error: { code: -32602, message: "no host function named 'other'" },
    });
    expect(JSON.parse(await answerHostCall(settings(echo), call({ value: 1 }), limits)).error.message).toBe(
      "echo: parameter 'value' must be an object",
    );
  });

  it('gives the handler its session, and reports its failure redacted', async () => {
    const failing = HostFunction('fail', 'd', [], (_args, context) => {
      throw new Error(`upstream said no to ${context.sessionId} with sk-test-0123456789`);
    });
    const answer = JSON.parse(await answerHostCall(settings(failing), call({}, 'fail'), limits));
    expect(answer.error).toEqual({
      code: -32603,
      message: 'fail failed: upstream said no to s1 with <redacted:API_KEY>',
    });
  });

  it('keeps registered secrets out of the sandbox: a result holding one is redacted', async () => {
    const leaky = HostFunction('leaky', 'd', [], () => ({ token: 'sk-test-0123456789' }));
    expect(JSON.parse(await answerHostCall(settings(leaky), call({}, 'leaky'), limits)).result).toEqual({
      token: '<redacted:API_KEY>',
    });
    const odd = new SecretRegistry();
    odd.register('a"b', 'sk-other-99999999');
    const broken = HostFunction('broken', 'd', [], () => 'sk-other-99999999');
    const answer = await answerHostCall(
      { ...settings(broken), redactor: () => odd.redactor() },
      call({}, 'broken'),
      limits,
    );
    expect(JSON.parse(answer).error.message).toBe('broken returned a value holding a registered secret');
  });

  it('refuses a result that is not JSON or does not fit in a frame', async () => {
    const bigint = HostFunction('big', 'd', [], () => 1n);
    expect(JSON.parse(await answerHostCall(settings(bigint), call({}, 'big'), limits)).error.message).toBe(
      'big returned a value that is not JSON',
    );
    const fn = HostFunction('fnResult', 'd', [], () => () => 1);
    expect(JSON.parse(await answerHostCall(settings(fn), call({}, 'fnResult'), limits)).error.message).toBe(
      'fnResult returned a value that is not JSON',
    );
    const huge = HostFunction('huge', 'd', [], () => 'x'.repeat(8_000_000));
    expect(JSON.parse(await answerHostCall(settings(huge), call({}, 'huge'), limits)).error.message).toMatch(
      /^huge returned 8000002 chars of JSON, more than a frame holds$/,
    );
  });

  it('stops waiting at the call timeout or when the execute ends', async () => {
    const slow = HostFunction(
      'slow',
      'd',
      [],
      (_args, context) =>
        new Promise((resolve) => context.signal.addEventListener('abort', () => resolve('late'))),
    );
    const timedOut = await answerHostCall(settings(slow), call({}, 'slow'), {
      timeoutMs: 20,
      signal: new AbortController().signal,
    });
    expect(JSON.parse(timedOut).error.message).toBe('slow failed: timed out after 20 ms');
    const ended = new AbortController();
    ended.abort(new Error('the execute ended'));
    const cancelled = await answerHostCall(settings(slow), call({}, 'slow'), {
      timeoutMs: 1000,
      signal: ended.signal,
    });
    expect(JSON.parse(cancelled).error.message).toBe('slow failed: the execute ended');
  });
});
