import { describe, expect, it } from 'vitest';
import { apiBaseUrl, describeError, isApiStatus, isReadyBody, isUnavailableBody } from './api';

const status = {
  name: 'helios',
  version: '0.1.0',
  database: { kind: 'embedded', ready: true, reason: null },
  instance: {
    id: 'i-1',
    createdAt: '2026-01-01T00:00:00Z',
    lastStartedAt: '2026-01-02T00:00:00Z',
    startCount: 2,
  },
  startedAt: '2026-01-02T00:00:00Z',
  uptimeSeconds: 5,
};

describe('the API client', () => {
  it('takes the base URL from HELIOS_API_URL without trailing slashes', () => {
    const env = (url?: string) =>
      ({ NODE_ENV: 'test', ...(url === undefined ? {} : { HELIOS_API_URL: url }) }) as const;
    expect(apiBaseUrl(env())).toBe('http://127.0.0.1:8080');
    expect(apiBaseUrl(env('  '))).toBe('http://127.0.0.1:8080');
    expect(apiBaseUrl(env('http://api:9000//'))).toBe('http://api:9000');
  });

  it('accepts the status shape, with or without the instance row', () => {
    expect(isApiStatus(status)).toBe(true);
    expect(
      isApiStatus({ ...status, instance: null, database: { kind: 'external', ready: false, reason: 'x' } }),
    ).toBe(true);
  });

  it('refuses malformed status bodies', () => {
    expect(isApiStatus(null)).toBe(false);
    expect(isApiStatus([])).toBe(false);
    expect(isApiStatus({ ...status, database: { ...status.database, kind: 'sqlite' } })).toBe(false);
    expect(isApiStatus({ ...status, uptimeSeconds: -1 })).toBe(false);
    expect(isApiStatus({ ...status, startedAt: 'soon' })).toBe(false);
    expect(isApiStatus({ ...status, instance: { ...status.instance, startCount: 1.5 } })).toBe(false);
  });

  it('reads readiness bodies', () => {
    expect(isReadyBody({ status: 'ready', database: 'ok', migrations: 'ok' })).toBe(true);
    expect(isReadyBody({ status: 'ready' })).toBe(false);
    expect(isUnavailableBody({ status: 'unavailable', reason: 'shutting down' })).toBe(true);
    expect(isUnavailableBody({ status: 'unavailable' })).toBe(false);
  });

  it('describes errors in one readable line', () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    expect(describeError(refused)).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:1)');
    expect(describeError(new DOMException('t', 'TimeoutError'))).toBe('no answer within 3 s');
    expect(describeError('plain')).toBe('plain');
  });
});
