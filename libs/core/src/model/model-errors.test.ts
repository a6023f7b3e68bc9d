import { describe, expect, it } from 'vitest';
import { ProviderError, TransientStreamError } from './model-errors.js';

describe('ProviderError', () => {
  it.each([
    [0, true, false, false],
    [400, false, true, false],
    [408, true, true, false],
    [429, true, true, false],
    [500, true, false, true],
    [529, true, false, true],
  ])('status %i: retryable %s, client %s, server %s', (status, retryable, client, server) => {
    const error = new ProviderError('API error', status);
    expect([error.isRetryable, error.isClientError, error.isServerError]).toEqual([
      retryable,
      client,
      server,
    ]);
    expect(error.code).toBe('PROVIDER_ERROR');
  });

  it('keeps the cause of a transient stream failure', () => {
    const cause = new Error('ECONNRESET');
    const error = new TransientStreamError('stream broke', 'anthropic', { cause });
    expect(error).toMatchObject({ providerName: 'anthropic', code: 'TRANSIENT_STREAM', cause });
  });
});
