/**
 * The connection that makes a process an owner of limit buckets: for as long as it is open it holds
 * the owner's advisory key SHARED (so the owner counts as alive and its fenced statements pass), it
 * listens for hand-back requests, and it holds EXCLUSIVELY the keys of the dead owners this process
 * took over — forever, so a statement a dead owner left in flight can never land afterwards.
 * When the connection is lost the process stops being an owner (limit-authority.ts).
 */
import { type Client } from 'pg';
import { type DataSource } from 'typeorm';
import { dedicatedClient } from '../sql.js';
import { ownerChannel, ownerKey } from './authority.sql.js';

export interface LeaseEvents {
  /** Another process asks for these buckets back. */
  onRequest(bucketIds: readonly string[]): void;
  /** The connection is gone: nothing this process decides in memory may be trusted from now on. */
  onLost(error: unknown): void;
}

export class Lease {
  private lost = false;

  private constructor(private readonly client: Client) {}

  static async open(dataSource: DataSource, owner: string, events: LeaseEvents): Promise<Lease> {
    const client = await dedicatedClient(dataSource);
    const lease = new Lease(client);
    const lose = (error: unknown): void => {
      if (lease.lost) return;
      lease.lost = true;
      void client.end().catch(() => undefined);
      events.onLost(error);
    };
    client.on('error', lose);
    client.on('end', () => lose(new Error('the limit authority connection ended')));
    client.on('notification', (message) => {
      if (message.channel !== ownerChannel(owner) || message.payload === undefined) return;
      try {
        const ids: unknown = JSON.parse(message.payload);
        if (Array.isArray(ids)) events.onRequest(ids.filter((id): id is string => typeof id === 'string'));
      } catch {
        // Not ours to answer: a malformed request is ignored.
      }
    });
    try {
      await client.query('SELECT pg_advisory_lock_shared($1::bigint)', [ownerKey(owner)]);
      await client.query(`LISTEN "${ownerChannel(owner)}"`);
    } catch (error) {
      lose(error);
      throw error;
    }
    return lease;
  }

  get alive(): boolean {
    return !this.lost;
  }

  /** The server process of this session (diagnostics, and tests that kill it). */
  get backendPid(): number | undefined {
    return (this.client as unknown as { processID?: number }).processID;
  }

  /** True when `owner` is dead: its key is now held exclusively here (and stays so). */
  async seize(owner: string): Promise<boolean> {
    const { rows } = await this.client.query<{ seized: boolean }>(
      'SELECT pg_try_advisory_lock($1::bigint) AS "seized"',
      [ownerKey(owner)],
    );
    return rows[0]?.seized === true;
  }

  /** Asks a live owner for buckets back (NOTIFY payloads stay under PostgreSQL's 8,000-byte cap). */
  async ask(owner: string, bucketIds: readonly string[]): Promise<void> {
    for (const chunk of chunks(bucketIds, 7_000)) {
      await this.client.query('SELECT pg_notify($1, $2)', [ownerChannel(owner), JSON.stringify(chunk)]);
    }
  }

  close(): void {
    if (this.lost) return;
    this.lost = true;
    // Its session holds advisory keys and a LISTEN: they end with it.
    void this.client.end().catch(() => undefined);
  }
}

function* chunks(ids: readonly string[], maxBytes: number): Generator<string[]> {
  let chunk: string[] = [];
  let bytes = 2;
  for (const id of ids) {
    const size = Buffer.byteLength(JSON.stringify(id)) + 1;
    if (chunk.length > 0 && bytes + size > maxBytes) {
      yield chunk;
      chunk = [];
      bytes = 2;
    }
    chunk.push(id);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}
