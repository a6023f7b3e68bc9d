/**
 * Event fan-out: the W1 loop (200 turns) with 1,000 event readers on one session, one of them stalled
 * (opened, never read), against the same run with no reader. Loop throughput is turns per second from
 * send to the last TurnEnded. Ratio = no-reader µs/turn ÷ with-readers µs/turn (target ≥ 0.95).
 *
 * Readers share the loop's thread and are woken on the macrotask queue (see EventHub): the in-memory
 * W1 model never yields, so the loop runs its 200 turns first and the 999 reading readers then take
 * what fit in their 256-event buffers plus RunEnded. What they read, and the time until every reader is
 * done, are reported beside the loop's figure, so the readers' own cost is visible, not hidden.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type EventStream } from '@helios/session';
import { openW1Session, runW1 } from '../agent-loop/workload.ts';
import { median } from '../median.ts';

// The same switch as `node --expose-gc`, set at run time since bench/run.ts starts this process.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as (options: { type: 'minor' }) => void;

const TURNS = 200;
const READERS = 1_000;
const ROUNDS = 21;

interface Sample {
  readonly ms: number;
  /** From send until every reader finished reading (the session closed after the run). */
  readonly allReadMs: number;
  readonly stalledMissed: number;
  /** Events each reading reader read, on average. */
  readonly readPerReader: number;
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
  let read = 0;
  for (let i = 0; i < readers; i += 1) {
    const events = session.events();
    reading.push(
      (async () => {
        for await (const _event of events) read += 1;
      })(),
    );
  }
  if (stalled) stalledStream = session.events();
  // Readers of a live session attached long before its next run: two young-generation collections
  // here promote them as time would, and clear the young garbage the previous sample left. (A full
  // collection would also shrink the young generation and slow every variant alike.)
  collectGarbage({ type: 'minor' });
  collectGarbage({ type: 'minor' });
  const start = performance.now();
  await runW1(session);
  const stalledMissed = stalledStream?.missed ?? 0;
  await session.close();
  await Promise.all(reading);
  const allReadMs = performance.now() - start;
  return { ms: loopEnd - start, allReadMs, stalledMissed, readPerReader: readers > 0 ? read / readers : 0 };
}

export default async function run(): Promise<{
  metrics: Record<string, number>;
  ratios: Record<string, number>;
}> {
  const none: number[] = [];
  const stalledOnly: number[] = [];
  const fanout: number[] = [];
  let missed = 0;
  let readPerReader = 0;
  const allRead: number[] = [];
  for (let i = 0; i < 2; i += 1) {
    await runWith(0, false);
    await runWith(READERS - 1, true);
  }
  // Interleaved, order rotated each round: drift in the machine's load hits every variant alike, and
  // the garbage one variant leaves (a thousand readers' worth) is collected in each variant's time in turn.
  const variants = [
    async () => none.push((await runWith(0, false)).ms),
    async () => stalledOnly.push((await runWith(0, true)).ms),
    async () => {
      const sample = await runWith(READERS - 1, true);
      fanout.push(sample.ms);
      allRead.push(sample.allReadMs);
      missed = sample.stalledMissed;
      readPerReader = sample.readPerReader;
    },
  ];
  for (let i = 0; i < ROUNDS; i += 1) {
    for (let k = 0; k < variants.length; k += 1) await variants[(i + k) % variants.length]!();
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
      [`events each of the ${READERS - 1} reading readers read`]: round(readPerReader),
      [`ms until all ${READERS} readers were done, per run`]: round(median(allRead)),
    },
    ratios: {
      'throughput 1 stalled ÷ none': round(base / withStalled),
      [`throughput ${READERS} readers ÷ none (target ≥ 0.95)`]: round(base / withReaders),
    },
  };
}
