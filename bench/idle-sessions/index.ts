/**
 * Idle sessions: 10,000 sessions open in one process, each after one short W1 run (one tool turn and
 * the answer) and with one parked event reader, as a server holding an SSE stream per session would
 * keep them. Reports RSS and heap after a full GC, and the heap each idle session holds (target: RSS
 * under 1 GiB).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type AgentSession } from '@helios/session';
import { openW1Session, runW1 } from '../agent-loop/workload.ts';

const SESSIONS = 10_000;
const MiB = 2 ** 20;

/** A full GC without --expose-gc on the command line (the runner starts plain tsx). */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

export default async function run(): Promise<{
  metrics: Record<string, number>;
  ratios: Record<string, number>;
}> {
  collect();
  const before = process.memoryUsage();
  const sessions: AgentSession[] = [];
  const reading: Promise<void>[] = [];
  for (let i = 0; i < SESSIONS; i += 1) {
    const session = await openW1Session(1, { systemPrompt: 'You add numbers.' });
    const events = session.events();
    reading.push(
      (async () => {
        for await (const _event of events);
      })(),
    );
    await runW1(session);
    sessions.push(session);
  }
  collect();
  const after = process.memoryUsage();
  await Promise.all(sessions.map((session) => session.close()));
  await Promise.all(reading);
  const round = (value: number): number => Math.round(value * 100) / 100;
  const rssMiB = after.rss / MiB;
  return {
    metrics: {
      'open idle sessions': sessions.length,
      'RSS MiB': round(rssMiB),
      'heap used MiB': round(after.heapUsed / MiB),
      'heap KiB per idle session': round((after.heapUsed - before.heapUsed) / 1024 / SESSIONS),
    },
    ratios: {
      'RSS ÷ 1 GiB (target < 1)': round(rssMiB / 1024),
    },
  };
}
