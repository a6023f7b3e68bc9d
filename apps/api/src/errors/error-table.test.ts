import {
  MemoryError,
  RunCancelledError,
  RunNotSuccessfulError,
  SessionClosedError,
  SessionConflictError,
  SessionStoreBusyError,
  SessionStoreCorruptError,
  SessionUnavailableError,
  SteeringQueueFullError,
  StreamIdleTimeoutError,
  UnknownQuestionError,
  WireFormatError,
  WorkspacePathError,
} from '@helios/session';
import { describe, expect, it } from 'vitest';
import { REFUSAL_MESSAGES } from '../auth/refusals.js';
import { ERROR_STATUS, httpStatusFor } from './error-table.js';

describe('the error table', () => {
  it('has a row for every code the session library throws', () => {
    const codes: string[] = [
      SessionClosedError,
      SteeringQueueFullError,
      UnknownQuestionError,
      RunCancelledError,
      StreamIdleTimeoutError,
      SessionUnavailableError,
      SessionConflictError,
      SessionStoreCorruptError,
    ].map((type) => new type('x').code);
    codes.push(
      new RunNotSuccessfulError({ type: 'Cancelled' } as never).code,
      new SessionStoreBusyError('x').code,
      new WireFormatError('event', 'x').code,
      new WorkspacePathError('a', 'Absolute').code,
      new MemoryError('/memories/a', 'NotMemoryPath').code,
    );
    for (const code of codes)
      expect({ code, mapped: Object.hasOwn(ERROR_STATUS, code) }).toEqual({ code, mapped: true });
  });

  it('maps the runtime API’s refusals and the session codes to the reference’s statuses', () => {
    for (const code of Object.keys(REFUSAL_MESSAGES)) expect(Object.hasOwn(ERROR_STATUS, code)).toBe(true);
    expect(
      Object.fromEntries(
        [
          'QUESTION_NOT_PENDING',
          'SESSION_CLOSED',
          'STEERING_QUEUE_FULL',
          'UNAUTHENTICATED',
          'SESSION_NOT_FOUND',
          'REQUEST_TOO_LARGE',
          'TOO_MANY_REQUESTS',
          'SESSION_LIMIT_REACHED',
          'REGISTRY_FULL',
          'SERVER_BUSY',
        ].map((code) => [code, httpStatusFor(code)]),
      ),
    ).toEqual({
      QUESTION_NOT_PENDING: 404,
      SESSION_CLOSED: 409,
      STEERING_QUEUE_FULL: 429,
      UNAUTHENTICATED: 401,
      SESSION_NOT_FOUND: 404,
      REQUEST_TOO_LARGE: 413,
      TOO_MANY_REQUESTS: 429,
      SESSION_LIMIT_REACHED: 429,
      REGISTRY_FULL: 503,
      SERVER_BUSY: 503,
    });
  });
});
