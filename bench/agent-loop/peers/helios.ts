/**
 * Helios: one session per run with the W1 model, a trace listener, the default permission policy and
 * one event reader with the default 256-event buffer. The model never yields, so the loop yields to
 * the reader each time its buffer fills (see EventHub), and the reader reads every event: every run is
 * checked to have missed none. The tool is defined once per process, as an application would (defining
 * one costs about half a millisecond, which would swamp a 10-turn run).
 */
import { bindTool, ToolCategory } from '@helios/session';
import { type W1Outcome } from '../outcome.ts';
import { addTool, CounterModel, openW1Session } from '../workload.ts';

let toolCalls = 0;
const tools = [
  bindTool(
    addTool(() => void (toolCalls += 1)),
    ToolCategory.READ,
  ),
];

/** A W1 run; `eventBufferSize` (default 256) sizes the one reader's buffer. */
export async function runWithBuffer(turns: number, eventBufferSize?: number): Promise<W1Outcome> {
  toolCalls = 0;
  const model = new CounterModel(turns);
  const session = await openW1Session(turns, {
    model,
    tools,
    ...(eventBufferSize === undefined ? {} : { eventBufferSize }),
  });
  const events = session.events();
  let eventsRead = 0;
  const reading = (async () => {
    for await (const _event of events) eventsRead += 1;
  })();
  const result = await session.send('add things');
  await session.close();
  await reading;
  return {
    modelCalls: model.calls,
    toolCalls,
    text: result.type === 'Success' ? result.result : result.type,
    eventsRead,
    eventsMissed: events.missed,
  };
}

export async function run(turns: number): Promise<W1Outcome> {
  const outcome = await runWithBuffer(turns);
  if (outcome.eventsMissed !== 0) throw new Error(`the reader missed ${outcome.eventsMissed} events`);
  return outcome;
}
