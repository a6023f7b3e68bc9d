/**
 * Event fan-out: the W1 loop (200 turns) with 1,000 event readers on one session, one of them stalled
 * (opened, never read), against the same run with no reader. Loop throughput is turns per second from
 * send to the last TurnEnded. The readers share the loop's thread, so their own reading is in the
 * figure; the stalled-only run isolates what a reader that never reads costs the loop. Ratio = no-reader
 * µs/turn ÷ with-readers µs/turn (target ≥ 0.95).
 */
import { type EventStream } from '@helios/session';
import { openW1Session, runW1 } from '../agent-loop/workload.ts';

const TURNS = 200;
const READERS = 1_000;
const ROUNDS = 15;

interface Sample {
  readonly ms: number;
  readonly stalledMissed: number;
}

/**
 * One W1 run; `ms` is the loop's time from send to its last TurnEnded, seen by an OnStreamEvent hook.
 * The run's promise settles later by design when a reader is stalled (RunEnded waits for room), so
 * the stalled reader is closed once the loop is done, which releases that wait.
 */
async function runWith(readers: number, stalled: boolean): Promise<Sample> {
  let turnsEnded = 0;
  let loopEnd = 0;
  let stalledStream: EventStream | undefined;
  const session = await openW1Session(TURNS, {
    hooks: [
      {
        type: 'OnStreamEvent',
        handle: (event) => {
          if (event.type !== 'TurnEnded') return;
          turnsEnded += 1;
          if (turnsEnded === TURNS + 1) {
            loopEnd = performance.now();
            setImmediate(() => stalledStream?.close());
          }
        },
      },
    ],
  });
  const reading: Promise<void>[] = [];
  for (let i = 0; i < readers; i += 1) {
    const events = session.events();
    reading.push(
      (async () => {
        for await (const _event of events);
      })(),
    );
  }
  if (stalled) stalledStream = session.events();
  const start = performance.now();
  await runW1(session);
  const stalledMissed = stalledStream?.missed ?? 0;
  await session.close();
  await Promise.all(reading);
  return { ms: loopEnd - start, stalledMissed };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export default async function run(): Promise<{
  metrics: Record<string, number>;
  ratios: Record<string, number>;
}> {
  const none: number[] = [];
  const stalledOnly: number[] = [];
  const fanout: number[] = [];
  let missed = 0;
  for (let i = 0; i < 2; i += 1) {
    await runWith(0, false);
    await runWith(READERS - 1, true);
  }
  // Interleaved, so drift in the machine's load hits every variant alike.
  for (let i = 0; i < ROUNDS; i += 1) {
    none.push((await runWith(0, false)).ms);
    stalledOnly.push((await runWith(0, true)).ms);
    const sample = await runWith(READERS - 1, true);
    fanout.push(sample.ms);
    missed = sample.stalledMissed;
  }
  const perTurn = (ms: number): number => (ms * 1000) / (TURNS + 1);
  const round = (value: number): number => Math.round(value * 100) / 100;
  const base = perTurn(median(none));
  const withStalled = perTurn(median(stalledOnly));
  const withReaders = perTurn(median(fanout));
  return {
    metrics: {
      'µs/turn, no reader': round(base),
      'µs/turn, 1 stalled reader': round(withStalled),
      [`µs/turn, ${READERS} readers (1 stalled)`]: round(withReaders),
      'events the stalled reader missed': missed,
    },
    ratios: {
      'throughput 1 stalled ÷ none': round(base / withStalled),
      [`throughput ${READERS} readers ÷ none (target ≥ 0.95)`]: round(base / withReaders),
    },
  };
}
