/**
 * Event fan-out: the W1 loop (200 turns) with 1,000 event readers on one session, one of them stalled
 * (opened, never read), against the same run with no reader and with the stalled reader alone. Loop
 * throughput is turns per second from send to the last TurnEnded.
 *
 * Readers share the loop's thread. The 999 reading readers keep up, so the loop yields to them each
 * time their buffers fill (see EventHub) and each reads every event of the run: their reading is now in
 * the loop's time. So that cost is judged against a floor measured in the same rounds: the same run
 * with no reader, whose events an OnStreamEvent hook pushes into a bare RxJS Subject with 999
 * subscribers — the least it costs to hand each event to each of 999 callbacks on this thread — and
 * the same run followed by 999 `for await` loops over plain array iterators of its events, the least
 * the async-iterator protocol readers use costs (one promise per read). The stalled reader alone must
 * not slow the loop (ratio ≥ 0.95): it is never active, so the loop never yields to it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type EventStream, type QueryEvent } from '@helios/session';
import { Subject } from 'rxjs';
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
/** The least a `for await` reader costs: an async iterator over an array, one resolved promise a read. */
class ArrayReader implements AsyncIterator<QueryEvent> {
  #next = 0;
  constructor(private readonly events: readonly QueryEvent[]) {}
  [Symbol.asyncIterator](): this {
    return this;
  }
  next(): Promise<IteratorResult<QueryEvent>> {
    const value = this.events[this.#next];
    this.#next += 1;
    return Promise.resolve(value === undefined ? { done: true, value: undefined } : { done: false, value });
  }
}

/**
 * The floor for 999 reading readers: the run with no reader collects its events (an OnStreamEvent
 * hook), then 999 `for await` loops read them all from plain array iterators.
 */
async function runWithArrayReaders(readers: number): Promise<Sample> {
  const events: QueryEvent[] = [];
  const session = await openW1Session(TURNS, {
    hooks: [{ type: 'OnStreamEvent', handle: (event) => void events.push(event) }],
  });
  collectGarbage({ type: 'minor' });
  collectGarbage({ type: 'minor' });
  const start = performance.now();
  await runW1(session);
  let read = 0;
  await Promise.all(
    Array.from({ length: readers }, async () => {
      for await (const _event of { [Symbol.asyncIterator]: () => new ArrayReader(events) }) read += 1;
    }),
  );
  const ms = performance.now() - start;
  await session.close();
  return { ms, allReadMs: ms, stalledMissed: 0, readPerReader: read / readers };
}

async function runWith(readers: number, stalled: boolean, subjectSubscribers = 0): Promise<Sample> {
  let turnsEnded = 0;
  let loopEnd = 0;
  let stalledStream: EventStream | undefined;
  let read = 0;
  const subject = new Subject<QueryEvent>();
  for (let i = 0; i < subjectSubscribers; i += 1) subject.subscribe(() => void (read += 1));
  const session = await openW1Session(TURNS, {
    hooks: [
      {
        type: 'OnStreamEvent',
        handle: (event) => {
          if (subjectSubscribers > 0) subject.next(event);
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
  const consumers = readers + subjectSubscribers;
  return {
    ms: loopEnd - start,
    allReadMs,
    stalledMissed,
    readPerReader: consumers > 0 ? read / consumers : 0,
  };
}

export default async function run(): Promise<{
  metrics: Record<string, number>;
  ratios: Record<string, number>;
}> {
  const none: number[] = [];
  const stalledOnly: number[] = [];
  const fanout: number[] = [];
  const floor: number[] = [];
  const iteratorFloor: number[] = [];
  let floorReadPerConsumer = 0;
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
      const sample = await runWith(0, false, READERS - 1);
      floor.push(sample.ms);
      floorReadPerConsumer = sample.readPerReader;
    },
    async () => iteratorFloor.push((await runWithArrayReaders(READERS - 1)).ms),
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
  const subjectFloor = perTurn(median(floor));
  const forAwaitFloor = perTurn(median(iteratorFloor));
  return {
    metrics: {
      'µs/turn, no reader': round(base),
      'µs/turn, 1 stalled reader': round(withStalled),
      [`µs/turn, ${READERS} readers (1 stalled)`]: round(withReaders),
      'events the stalled reader missed': missed,
      [`events each of the ${READERS - 1} reading readers read`]: round(readPerReader),
      [`ms until all ${READERS} readers were done, per run`]: round(median(allRead)),
      [`µs/turn, no reader + bare RxJS Subject to ${READERS - 1} subscribers (floor)`]: round(subjectFloor),
      [`events each of the ${READERS - 1} Subject subscribers got`]: round(floorReadPerConsumer),
      [`µs/turn, no reader, then ${READERS - 1} for-await loops over the run's events (floor)`]:
        round(forAwaitFloor),
    },
    ratios: {
      'throughput 1 stalled ÷ none (target ≥ 0.95)': round(base / withStalled),
      [`throughput ${READERS} readers ÷ none (informative: includes every reader reading every event)`]:
        round(base / withReaders),
      [`throughput ${READERS} readers ÷ bare Subject floor`]: round(subjectFloor / withReaders),
      [`throughput ${READERS} readers ÷ bare for-await floor`]: round(forAwaitFloor / withReaders),
    },
  };
}
