import { describe, expect, it } from 'vitest';
import {
  describeSessionStatus,
  formatDatabaseKind,
  formatMicroUsd,
  formatPendingQuestions,
  formatTimestamp,
  formatUptime,
  formatUtcDateTime,
} from './format';

describe('status formatting', () => {
  it('names the database kind', () => {
    expect(formatDatabaseKind('embedded')).toBe('Embedded PostgreSQL');
    expect(formatDatabaseKind('external')).toBe('External PostgreSQL');
  });

  it('shows uptime at each unit boundary', () => {
    expect(formatUptime(-3)).toBe('0 s');
    expect(formatUptime(59.9)).toBe('59 s');
    expect(formatUptime(60)).toBe('1 min 0 s');
    expect(formatUptime(3_599)).toBe('59 min 59 s');
    expect(formatUptime(3_600)).toBe('1 h 0 min');
    expect(formatUptime(86_399)).toBe('23 h 59 min');
    expect(formatUptime(93_784)).toBe('1 d 2 h 3 min');
  });

  it('shows timestamps in UTC and leaves unreadable ones as they are', () => {
    expect(formatTimestamp('2025-06-01T08:30:12.345Z')).toBe('2025-06-01 08:30:12 UTC');
    expect(formatTimestamp('2025-06-01T10:30:12+02:00')).toBe('2025-06-01 08:30:12 UTC');
    expect(formatTimestamp('yesterday')).toBe('yesterday');
    expect(formatUtcDateTime('2025-06-01T10:30:12+02:00')).toBe('2025-06-01 08:30:12');
    expect(formatUtcDateTime('yesterday')).toBe('yesterday');
  });
});

describe('sessions formatting', () => {
  it('shows micro-USD exactly, with cents and only the micro-digits that are not zero', () => {
    expect(formatMicroUsd('0')).toBe('$0.00');
    expect(formatMicroUsd('12')).toBe('$0.000012');
    expect(formatMicroUsd('10000')).toBe('$0.01');
    expect(formatMicroUsd('1500000')).toBe('$1.50');
    expect(formatMicroUsd('1234567')).toBe('$1.234567');
    expect(formatMicroUsd('1234500000')).toBe('$1,234.50');
    // Past Number.MAX_SAFE_INTEGER, where a float would round.
    expect(formatMicroUsd('123456789012345678901')).toBe('$123,456,789,012,345.678901');
  });

  it('leaves a cost that is not whole micro-units as it came', () => {
    expect(formatMicroUsd('1.5')).toBe('1.5');
    expect(formatMicroUsd('-3')).toBe('-3');
  });

  it('explains every session status', () => {
    expect(describeSessionStatus('idle')).toContain('Never ran');
    expect(describeSessionStatus('running')).toContain('in progress');
    expect(describeSessionStatus('finished')).toContain('last run ended');
    expect(describeSessionStatus('closed')).toContain('Closed');
  });

  it('counts waiting questions, and says nothing when there are none', () => {
    expect(formatPendingQuestions(0)).toBeNull();
    expect(formatPendingQuestions(1)).toBe('1 question waiting');
    expect(formatPendingQuestions(3)).toBe('3 questions waiting');
  });
});
