/**
 * The runtime HTTP surface under load, side by side with a floor in one run: 1,000 concurrent SSE
 * streams (50 sessions × 20) on one API process fed by scripted sessions, against a bare Fastify route
 * writing the same frames to the same number of streams at the same pace (server.ts). Reports event
 * latency p99 (arrival − the event's timestamp) and server CPU per delivered event, each as a ratio to
 * the floor's (target ≤ 2), RSS per open stream, and scripted runs per second through
 * `POST /messages` + the result long poll (32 sessions, 5 s).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMicros } from '../process-cpu.ts';
import { type Deliveries, openStream, post, rssKiB } from './sse-client.ts';
import { DELTAS, SESSIONS, STREAMS_PER_SESSION, TOKEN } from './workload.ts';

type Mode = 'helios' | 'floor';
const HEADERS = { authorization: `Bearer ${TOKEN}` };
const RUN_LOOPS = 32;
const RUN_SECONDS = 5;

interface Measured {
  readonly p99Ms: number;
  readonly p50Ms: number;
  readonly cpuUsPerEvent: number;
  readonly rssKiBPerStream: number;
  readonly delivered: number;
  readonly runsPerSecond?: number;
}

async function startServer(mode: Mode): Promise<{ child: ChildProcess; url: string }> {
  const script = fileURLToPath(new URL('./server.ts', import.meta.url));
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

async function createSessions(url: string, agent: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const created = await post(`${url}/v1/sessions`, HEADERS, { agent });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
    ids.push((JSON.parse(created.text) as { sessionId: string }).sessionId);
  }
  return ids;
}

async function measure(mode: Mode): Promise<Measured> {
  const { child, url } = await startServer(mode);
  const pid = child.pid as number;
  try {
    const ids = await createSessions(url, 'stream', SESSIONS);
    const deliveries: Deliveries = { latencies: [], count: 0 };
    const streams = SESSIONS * STREAMS_PER_SESSION;
    let ended = 0;
    let allEnded!: () => void;
    const done = new Promise<void>((resolve) => (allEnded = resolve));
    const rssBefore = await rssKiB(pid);
    const closers: (() => void)[] = [];
    for (const id of ids) {
      for (let i = 0; i < STREAMS_PER_SESSION; i += 1) {
        closers.push(
          await openStream(`${url}/v1/sessions/${id}/events`, HEADERS, deliveries, () => {
            ended += 1;
            if (ended === streams) allEnded();
          }),
        );
      }
    }
    const rssAfter = await rssKiB(pid);
    const cpuBefore = cpuMicros(pid);
    await Promise.all(ids.map((id) => post(`${url}/v1/sessions/${id}/messages`, HEADERS, { text: 'go' })));
    await done;
    const cpu = cpuMicros(pid) - cpuBefore;
    for (const close of closers) close();
    const expected = streams * (DELTAS + 4);
    if (deliveries.count !== expected)
      throw new Error(`${mode}: delivered ${deliveries.count}, expected ${expected}`);
    const sorted = deliveries.latencies.sort((a, b) => a - b);
    return {
      p99Ms: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
      p50Ms: sorted[Math.floor(sorted.length * 0.5)] ?? 0,
      cpuUsPerEvent: Number((cpu / deliveries.count).toFixed(2)),
      rssKiBPerStream: Number(((rssAfter - rssBefore) / streams).toFixed(1)),
      delivered: deliveries.count,
      ...(mode === 'helios' ? { runsPerSecond: await runsPerSecond(url) } : {}),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** RUN_LOOPS sessions of the quick agent, each sending a message and long-polling its result in turn. */
async function runsPerSecond(url: string): Promise<number> {
  const ids = await createSessions(url, 'quick', RUN_LOOPS);
  const deadline = Date.now() + RUN_SECONDS * 1000;
  let runs = 0;
  await Promise.all(
    ids.map(async (id) => {
      while (Date.now() < deadline) {
        const sent = await post(`${url}/v1/sessions/${id}/messages`, HEADERS, { text: 'go' });
        if (sent.status !== 202) throw new Error(`message answered ${sent.status}: ${sent.text}`);
        const result = await fetch(`${url}/v1/sessions/${id}/result?timeout=10`, { headers: HEADERS });
        if (result.status !== 200) throw new Error(`result answered ${result.status}`);
        await result.text();
        runs += 1;
      }
    }),
  );
  return Math.round(runs / RUN_SECONDS);
}

export default async function run(): Promise<{
  metrics: Record<string, number>;
  ratios: Record<string, number>;
}> {
  const floor = await measure('floor');
  const helios = await measure('helios');
  return {
    metrics: {
      streams: SESSIONS * STREAMS_PER_SESSION,
      deliveredEvents: helios.delivered,
      heliosLatencyP50Ms: helios.p50Ms,
      heliosLatencyP99Ms: helios.p99Ms,
      floorLatencyP50Ms: floor.p50Ms,
      floorLatencyP99Ms: floor.p99Ms,
      heliosCpuUsPerEvent: helios.cpuUsPerEvent,
      floorCpuUsPerEvent: floor.cpuUsPerEvent,
      heliosRssKiBPerStream: helios.rssKiBPerStream,
      floorRssKiBPerStream: floor.rssKiBPerStream,
      heliosRunsPerSecond: helios.runsPerSecond ?? 0,
    },
    ratios: {
      // ms timestamps: a floor p99 under 1 ms counts as 1 ms.
      latencyP99VsFloor: Number((Math.max(1, helios.p99Ms) / Math.max(1, floor.p99Ms)).toFixed(2)),
      cpuPerEventVsFloor: Number((helios.cpuUsPerEvent / floor.cpuUsPerEvent).toFixed(2)),
    },
  };
}
