import pino from 'pino';
import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { serializeError } from './error-serializer.js';

/** A PostgreSQL error as the pg driver builds it: the values sit in `detail` and `where`. */
function driverError(message: string, code: string): Error {
  return Object.assign(new Error(message), {
    code,
    detail: 'Key (sender_id)=(SECRET-VALUE) already exists.',
    where: "SQL statement with 'SECRET-VALUE'",
    table: 'limit_buckets',
    constraint: 'limit_buckets_pkey',
  });
}

describe('serializeError', () => {
  it('keeps class, code, message, SQL text and names; drops parameters, driverError, detail and where', () => {
    const error = new QueryFailedError(
      'INSERT INTO "limit_buckets" ("sender_id") VALUES ($1)',
      ['SECRET-VALUE'],
      driverError('duplicate key value violates unique constraint "limit_buckets_pkey"', '23505'),
    );
    const logged = serializeError(error);
    expect(logged).toMatchObject({
      type: 'QueryFailedError',
      code: '23505',
      message: 'duplicate key value violates unique constraint "limit_buckets_pkey"',
      query: 'INSERT INTO "limit_buckets" ("sender_id") VALUES ($1)',
      table: 'limit_buckets',
      constraint: 'limit_buckets_pkey',
    });
    expect(JSON.stringify(logged)).not.toContain('SECRET-VALUE');
  });

  it('masks the input PostgreSQL quotes in a data exception, in the message and the stack', () => {
    const error = new QueryFailedError(
      'SELECT $1::int',
      ['SECRET-VALUE'],
      driverError('invalid input syntax for type integer: "SECRET-VALUE"', '22P02'),
    );
    const logged = serializeError(error);
    expect(logged.message).toBe('invalid input syntax for type integer: "…"');
    expect(logged.stack).toMatch(/^QueryFailedError: invalid input syntax for type integer: "…"\n {4}at /);
    expect(JSON.stringify(logged)).not.toContain('SECRET-VALUE');
  });

  it('walks causes and aggregated errors, and stays safe after pino-http wraps it', () => {
    const inner = new QueryFailedError('SELECT 1', ['SECRET-VALUE'], driverError('boom', 'XX000'));
    const outer = new Error('evaluate failed', { cause: new AggregateError([inner], 'both failed') });
    expect(JSON.stringify(serializeError(outer))).not.toContain('SECRET-VALUE');
    expect(serializeError(outer).cause?.errors?.[0]).toMatchObject({
      type: 'QueryFailedError',
      code: 'XX000',
    });
    const wrapped = pino.stdSerializers.wrapErrorSerializer(serializeError);
    const line = JSON.stringify(wrapped(inner));
    expect(line).toContain('QueryFailedError');
    expect(line).not.toContain('SECRET-VALUE');
    expect(serializeError('plain text')).toEqual({ type: 'string', message: 'plain text' });
  });
});
