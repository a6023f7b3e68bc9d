/**
 * `/evaluate` over HTTP, 50 connections, the Helios adapter listener (real engine, in-memory stores)
 * against a bare Fastify route that parses the same body and returns a fixed decision, in the same run.
 * A third server, the listener with a fixed answer, separates the transport's cost from the engine's.
 * Each server runs in its own process so its CPU time can be read from /proc; autocannon drives both
 * from this process. Three rounds interleave the servers (order rotated); each figure is the median
 * of its three measurements. Targets (issue 5): server CPU per request ≤ 1.5× bare Fastify's,
 * req/s ≥ 0.6×, p99 ≤ 5 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BenchResult } from '../run.ts';

const CONNECTIONS = 50;
const DURATION_S = 4;
const ROUNDS = 3;
const TOKEN = 'bench-adapter-token-000000000000000000000001';
const BODY = JSON.stringify({
  origin: 'bench',
  session_id: 'bench-session',
  tool: { name: 'read_file', annotations: { readOnlyHint: true } },
  arguments: { path: '/etc/hosts', offset: 0, limit: 100 },
  metadata: { channel_id: 'c1', sender_id: 'u1' },
});

export type Mode = 'helios' | 'listener' | 'bare';

interface Measured {
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly cpuUsPerRequest: number;
  readonly non2xx: number;
}

/** utime + stime of a process, in µs (clock ticks are 100 Hz on Linux). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export async function startServer(mode: Mode): Promise<{ child: ChildProcess; url: string }> {
  const script = fileURLToPath(new URL('./server.ts', import.meta.url));
  // `--import tsx` runs the server in this very process (the tsx CLI would add a wrapper process).
  const child = spawn(process.execPath, ['--import', 'tsx', script, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /LISTENING (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${mode} server exited (${code})`)));
  });
  return { child, url };
}

async function measure(mode: Mode): Promise<Measured> {
  const { child, url } = await startServer(mode);
  try {
    const fire = (duration: number) =>
      autocannon({
        url: `${url}/evaluate`,
        method: 'POST',
        connections: CONNECTIONS,
        duration,
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: BODY,
      });
    await fire(1); // warm-up
    const before = cpuMicros(child.pid as number);
    const result = await fire(DURATION_S);
    const cpu = cpuMicros(child.pid as number) - before;
    return {
      requestsPerSecond: Math.round(result.requests.average),
      p99Ms: result.latency.p99,
      cpuUsPerRequest: Number((cpu / result.requests.total).toFixed(1)),
      non2xx: result.non2xx,
    };
  } finally {
    child.kill('SIGTERM');
  }
}

/** The median of each figure over the rounds. */
function medianOf(samples: readonly Measured[]): Measured {
  const median = (pick: (m: Measured) => number): number => {
    const sorted = samples.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };
  return {
    requestsPerSecond: median((m) => m.requestsPerSecond),
    p99Ms: median((m) => m.p99Ms),
    cpuUsPerRequest: median((m) => m.cpuUsPerRequest),
    non2xx: Math.max(...samples.map((m) => m.non2xx)),
  };
}

export default async function run(): Promise<BenchResult> {
  // Rounds interleave the servers (order rotated): drift in a shared machine's load hits all alike.
  const modes: Mode[] = ['bare', 'listener', 'helios'];
  const samples = new Map<Mode, Measured[]>(modes.map((mode) => [mode, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let k = 0; k < modes.length; k += 1) {
      const mode = modes[(round + k) % modes.length] as Mode;
      samples.get(mode)?.push(await measure(mode));
    }
  }
  const [bare, listener, helios] = modes.map((mode) => medianOf(samples.get(mode) ?? [])) as [
    Measured,
    Measured,
    Measured,
  ];
  if (helios.non2xx > 0) throw new Error(`Helios answered ${helios.non2xx} requests with a non-2xx status`);
  return {
    metrics: {
      'bare req/s': bare.requestsPerSecond,
      'helios req/s': helios.requestsPerSecond,
      'bare p99 ms': bare.p99Ms,
      'helios p99 ms': helios.p99Ms,
      'bare server CPU µs/req': bare.cpuUsPerRequest,
      'helios server CPU µs/req': helios.cpuUsPerRequest,
      'listener-only (fixed answer) req/s': listener.requestsPerSecond,
      'listener-only server CPU µs/req': listener.cpuUsPerRequest,
    },
    ratios: {
      'helios/bare CPU per request (≤ 1.5)': Number(
        (helios.cpuUsPerRequest / bare.cpuUsPerRequest).toFixed(2),
      ),
      'helios/bare req/s (≥ 0.6)': Number((helios.requestsPerSecond / bare.requestsPerSecond).toFixed(2)),
      'listener-only/bare CPU per request': Number(
        (listener.cpuUsPerRequest / bare.cpuUsPerRequest).toFixed(2),
      ),
    },
  };
}
