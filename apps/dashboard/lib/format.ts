// Display formatting for the status page. Times are rendered on the server, so they are shown in UTC to
// read the same whatever the server's or the viewer's time zone is.

import type { DatabaseKind } from './api';

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
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
