/**
 * This process's recent view of the pending backlog (count and bytes), as read or left by its own
 * statements. It answers the /evaluate pre-check (`hasRoom`) without a round trip only while the
 * backlog was, a moment ago, under HALF of both caps: to make that answer wrong, other processes would
 * have to fill the other half within the view's short lifetime. Near the caps it answers nothing and
 * the caller reads the counter row; the admission itself always checks the caps atomically in SQL.
 */
import { type BacklogCaps } from '@helios/governance';

/** How long a view may stand in for the counter row. */
const VIEW_TTL_MS = 200;

export class BacklogView {
  private count = 0;
  private bytes = 0;
  private seenAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = Date.now) {}

  /** The counter row as a statement just read or left it. */
  observe(count: number, bytes: number): void {
    this.count = count;
    this.bytes = bytes;
    this.seenAtMs = this.now();
  }

  /** A refusal means the view was off: read the row again next time. */
  forget(): void {
    this.seenAtMs = Number.NEGATIVE_INFINITY;
  }

  /** True only when the backlog is surely far from both caps; false means "ask the database". */
  clearlyHasRoom(bytes: number, caps: BacklogCaps): boolean {
    if (this.now() - this.seenAtMs > VIEW_TTL_MS) return false;
    return this.count + 1 <= caps.maxCount / 2 && this.bytes + bytes <= caps.maxBytes / 2;
  }
}
