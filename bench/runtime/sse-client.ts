/**
 * The benchmark's SSE clients: one connection per stream, frames cut at blank lines, and per event its
 * delivery latency (arrival minus the event's own `timestamp`, both this machine's clock in ms).
 */
import { Agent, request } from 'node:http';

export interface Deliveries {
  /** Latency of every delivered event, ms. */
  readonly latencies: number[];
  count: number;
}

const TIMESTAMP = /"timestamp":(\d+)/;
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

/** Opens a stream; resolves once `Ready` arrived, and calls `onRunEnded` at each RunEnded. */
export function openStream(
  url: string,
  headers: Record<string, string>,
  deliveries: Deliveries,
  onRunEnded: () => void,
): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      let pending = '';
      let ready = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const now = Date.now();
        pending += chunk;
        let end = pending.indexOf('\n\n');
        while (end !== -1) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          end = pending.indexOf('\n\n');
          if (!ready && frame.startsWith('event: Ready')) {
            ready = true;
            resolve(() => req.destroy());
            continue;
          }
          const timestamp = TIMESTAMP.exec(frame)?.[1];
          if (timestamp === undefined) continue;
          deliveries.latencies.push(now - Number(timestamp));
          deliveries.count += 1;
          if (frame.includes('\nevent: RunEnded\n')) onRunEnded();
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export async function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** Resident set size of a process, KiB (Linux). */
export async function rssKiB(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}
