import { describe, expect, it } from 'vitest';
import { formatDatabaseKind, formatTimestamp, formatUptime } from './format';

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
  });
});
