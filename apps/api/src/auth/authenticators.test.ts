import { describe, expect, it, vi } from 'vitest';
import { type AuthenticationRequest } from './authentication.js';
import { FirstOfAuthenticator } from './first-of-authenticator.js';
import { Identity } from './identity.js';
import { isLoopbackHost } from './loopback.js';
import { StaticTokenAuthenticator } from './static-token-authenticator.js';
import { TrustedProxyAuthenticator } from './trusted-proxy-authenticator.js';

function request(
  headers: Record<string, string | string[]>,
  remoteAddress = '127.0.0.1',
): AuthenticationRequest {
  const flat = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
  );
  const distinct = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]),
  );
  return { headers: flat, headersDistinct: distinct, remoteAddress };
}

describe('StaticTokenAuthenticator', () => {
  const tokens = new StaticTokenAuthenticator([
    { token: 'first-token-0123456789', tenant: 'acme', subject: 'alice', roles: ['admin'] },
    { token: 'second-token-012345678', tenant: 'acme', subject: 'bob', roles: [] },
  ]);

  it('knows each token’s principal and nothing else', async () => {
    expect(await tokens.authenticate(request({ authorization: 'Bearer second-token-012345678' }))).toEqual({
      principal: { tenant: 'acme', subject: 'bob' },
      roles: [],
    });
    for (const authorization of [
      'Bearer first-token-012345678',
      'Basic first-token-0123456789',
      'first-token-0123456789',
    ]) {
      expect(await tokens.authenticate(request({ authorization }))).toBeUndefined();
    }
    expect(await tokens.authenticate(request({}))).toBeUndefined();
    expect(tokens.challenge).toBe('Bearer realm="helios"');
  });
});

describe('TrustedProxyAuthenticator', () => {
  const proxy = new TrustedProxyAuthenticator({
    addresses: ['10.0.0.5'],
    challenge: 'TrustedProxy realm="helios"',
  });
  const asserted = { 'x-authenticated-tenant': 'acme', 'x-authenticated-subject': 'alice' };

  it('trusts the headers only from a listed address (IPv4-mapped included), once each', async () => {
    expect(await proxy.authenticate(request(asserted, '::ffff:10.0.0.5'))).toMatchObject({
      principal: { tenant: 'acme', subject: 'alice' },
    });
    expect(await proxy.authenticate(request(asserted, '10.0.0.6'))).toBeUndefined();
    expect(
      await proxy.authenticate(
        request({ ...asserted, 'x-authenticated-subject': ['alice', 'root'] }, '10.0.0.5'),
      ),
    ).toBeUndefined();
    expect(
      await proxy.authenticate(request({ ...asserted, 'x-authenticated-subject': 'a\u0000b' }, '10.0.0.5')),
    ).toBeUndefined();
  });

  it('lists every distinct challenge when combined', () => {
    const tokens = new StaticTokenAuthenticator([]);
    expect(new FirstOfAuthenticator([tokens, proxy, tokens]).challenge).toBe(
      'Bearer realm="helios", TrustedProxy realm="helios"',
    );
  });
});

describe('Identity', () => {
  it('is lost when its credential expires or is revoked, and says so once', () => {
    vi.useFakeTimers();
    try {
      const revoked = new AbortController();
      const identity = new Identity({
        principal: { tenant: 't', subject: 's' },
        roles: [],
        expiresAt: Date.now() + 1_000,
        revoked: revoked.signal,
      });
      const lost = vi.fn();
      identity.whenLost(lost);
      expect(identity.valid).toBe(true);
      vi.advanceTimersByTime(999);
      expect(lost).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(lost).toHaveBeenCalledTimes(1);
      expect(identity.valid).toBe(false);
      revoked.abort();
      expect(lost).toHaveBeenCalledTimes(1);
      const byRevocation = vi.fn();
      const other = new Identity({
        principal: { tenant: 't', subject: 's' },
        roles: [],
        revoked: new AbortController().signal,
      });
      const stop = other.whenLost(byRevocation);
      stop();
      vi.advanceTimersByTime(10_000);
      expect(byRevocation).not.toHaveBeenCalled();
      expect(identity.key).toBe(other.key);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('isLoopbackHost', () => {
  it('accepts only addresses that stay on this machine', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      'localhost',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
    ]) {
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: true });
    }
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'example.com', '::2', '::ffff:10.0.0.1']) {
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: false });
    }
  });
});
