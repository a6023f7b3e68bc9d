/** The floor: the same work as a hand-written loop over plain objects, one event to one subscriber. */
import { type W1Outcome } from '../outcome.ts';

export async function run(turns: number): Promise<W1Outcome> {
  const history: { role: string; content: string; call?: unknown }[] = [
    { role: 'user', content: 'add things' },
  ];
  let events = 0;
  let modelCalls = 0;
  let toolCalls = 0;
  const emit = (_event: unknown): void => void (events += 1);
  const model = async (turn: number) => {
    modelCalls += 1;
    return turn < turns
      ? { text: '', call: { id: `c${turn}`, name: 'add', args: `{"a":${turn},"b":2}` } }
      : { text: 'done', call: undefined };
  };
  const tools: Record<string, (args: { a: number; b: number }) => Promise<string>> = {
    add: async ({ a, b }) => {
      toolCalls += 1;
      return String(a + b);
    },
  };
  for (let turn = 0; ; turn += 1) {
    const answer = await model(turn);
    if (!answer.call) {
      history.push({ role: 'assistant', content: answer.text });
      emit({ type: 'done', text: answer.text });
      break;
    }
    history.push({ role: 'assistant', content: '', call: answer.call });
    const tool = tools[answer.call.name];
    const output = tool ? await tool(JSON.parse(answer.call.args) as { a: number; b: number }) : 'not found';
    history.push({ role: 'tool', content: output });
    emit({ type: 'tool', output });
  }
  const last = history.at(-1);
  return { modelCalls, toolCalls, text: events === turns + 1 && last ? last.content : 'lost events' };
}
