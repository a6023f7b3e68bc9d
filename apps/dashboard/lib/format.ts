// Display formatting for the dashboard's pages. Times are rendered on the server, so they are shown in UTC
// to read the same whatever the server's or the viewer's time zone is.

import type { DatabaseKind } from './api';
import type { SessionStatus } from './runtime-api';

const MICRO_UNITS_PER_UNIT = 1_000_000n;

export function formatDatabaseKind(kind: DatabaseKind): string {
  switch (kind) {
    case 'embedded':
      return 'Embedded PostgreSQL';
    case 'external':
      return 'External PostgreSQL';
    default: {
      const unknownKind: never = kind;
      return String(unknownKind);
    }
  }
}

/** `93784` → `1 d 2 h 3 min`; seconds are only shown below one hour, where they still matter. */
export function formatUptime(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${days} d ${hours} h ${minutes} min`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${rest} s`;
  return `${rest} s`;
}

/** `2025-06-01T08:30:12.345Z` → `2025-06-01 08:30:12 UTC`. */
export function formatTimestamp(iso: string): string {
  const utc = formatUtcDateTime(iso);
  return utc === iso ? iso : `${utc} UTC`;
}

/** `2025-06-01T08:30:12.345Z` → `2025-06-01 08:30:12`, for a table column whose header says UTC. */
export function formatUtcDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Integer micro-USD as the API's decimal string → `$1,234.50`: exact at any size (bigint), always with
 * cents, and with the micro-digits past them only where they are not zero (`12` → `$0.000012`). A value
 * that is not a whole number of micro-units is shown as it came.
 */
export function formatMicroUsd(microUnits: string): string {
  if (!/^\d+$/.test(microUnits)) return microUnits;
  const value = BigInt(microUnits);
  const whole = (value / MICRO_UNITS_PER_UNIT).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (value % MICRO_UNITS_PER_UNIT).toString().padStart(6, '0').replace(/0+$/, '');
  return `$${whole}.${fraction.padEnd(2, '0')}`;
}

/** What each session status means (the API's own definitions), for the status cell's tooltip. */
export function describeSessionStatus(status: SessionStatus): string {
  switch (status) {
    case 'idle':
      return 'Never ran: no message sent yet';
    case 'running':
      return 'A run is in progress';
    case 'finished':
      return 'Its last run ended; a new message starts the next one';
    case 'closed':
      return 'Closed: it takes no more messages';
    default: {
      const unknownStatus: never = status;
      return String(unknownStatus);
    }
  }
}

/** `0` → `null`, `1` → `1 question waiting`, `2` → `2 questions waiting`. */
export function formatPendingQuestions(count: number): string | null {
  if (count <= 0) return null;
  return `${count} ${count === 1 ? 'question' : 'questions'} waiting`;
}
