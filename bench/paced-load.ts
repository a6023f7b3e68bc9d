/**
 * An open-loop load at a constant arrival rate: request i is sent at start + i / rate, whether or not
 * earlier ones were answered (a request finding every connection busy waits in the pool's queue, and
 * that wait is part of its latency). This is what a latency target at a given load means.
 *
 * autocannon's `overallRate` is not that: it gives each connection a quota per second, which the
 * connection sends as fast as it can at the top of every second, then it waits. The server sees a burst
 * at full speed followed by silence, so the latencies are close to those of saturation (Helios' p99 was
 * 28 ms at half its capacity here; paced at the same rate, 7.5–19 ms, bare Fastify's 3–6).
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface PacedLoadOptions {
  /** Origin and path, e.g. `http://127.0.0.1:3200/evaluate`. */
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Requests per second, spread evenly. */
  readonly rate: number;
  readonly durationS: number;
  /** Keep-alive connections the requests share (one request in flight on each). */
  readonly connections: number;
}

export interface PacedLoadResult {
  readonly requests: number;
  /** Responses whose status was not 2xx, plus requests that failed outright. */
  readonly failed: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** The timer's step: every step sends the requests that fell due since the last one. */
const STEP_MS = 1;

export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const target = new URL(options.url);
  const pool = new Pool(target.origin, { connections: options.connections, pipelining: 1 });
  const total = Math.round(options.rate * options.durationS);
  if (total < 1) throw new RangeError('pacedLoad: rate × durationS must make at least one request');
  const latencies = new Float64Array(total);
  let failed = 0;
  let completed = 0;
  let allAnswered: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    allAnswered = resolve;
  });

  // dispatch() with a handler, not request(): no promise or body stream per request, so the load
  // generator takes as little of the machine's CPU from the server as it can.
  const send = (index: number): void => {
    const sentAt = performance.now();
    let status = 0;
    const done = (ok: boolean): void => {
      latencies[index] = performance.now() - sentAt;
      if (!ok) failed += 1;
      completed += 1;
      if (completed === total) allAnswered();
    };
    pool.dispatch(
      {
        path: target.pathname,
        method: options.method,
        headers: options.headers,
        ...(options.body === undefined ? {} : { body: options.body }),
      },
      {
        onConnect: () => undefined,
        onHeaders: (statusCode) => {
          status = statusCode;
          return true;
        },
        onData: () => true,
        onComplete: () => done(status >= 200 && status < 300),
        onError: () => done(false),
      },
    );
  };

  const start = performance.now();
  let sent = 0;
  const step = (): void => {
    const due = Math.min(total, Math.floor(((performance.now() - start) * options.rate) / 1000) + 1);
    while (sent < due) send(sent++);
    if (sent < total) setTimeout(step, STEP_MS);
  };
  step();
  await answered;
  const elapsedS = (performance.now() - start) / 1000;
  await pool.close();

  const sorted = latencies.sort();
  const at = (q: number): number =>
    Number((sorted[Math.min(total - 1, Math.ceil(q * total) - 1)] ?? 0).toFixed(2));
  return {
    requests: total,
    failed,
    requestsPerSecond: Math.round(total / elapsedS),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: Number((sorted[total - 1] ?? 0).toFixed(2)),
  };
}
