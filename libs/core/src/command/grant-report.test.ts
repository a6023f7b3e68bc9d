import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SecretRegistry } from '../secrets/secret-registry.js';
import { type CommandEnd, type CommandOutcome } from './command-run.js';
import { reportText } from './grant-report.js';
import { OutputCapture } from './output-capture.js';

const SETTINGS = { name: 'tool', timeoutMs: 250, stderrToModel: false };

async function outcome(end: CommandEnd, extra: Partial<CommandOutcome> = {}): Promise<CommandOutcome> {
  const capture = async (text: string) => {
    const stream = new PassThrough();
    const result = new OutputCapture(stream, 1024);
    stream.end(text);
    await result.closed;
    return result;
  };
  return {
    end,
    stdout: await capture('out'),
    stderr: await capture(''),
    survivors: [],
    outputHeldOpen: false,
    ...extra,
  };
}

describe('reportText', () => {
  const redactor = new SecretRegistry().redactor();

  it.each([
    [{ type: 'Exited', code: 0 }, '[tool exit 0]'],
    [{ type: 'Killed', signal: 'SIGSEGV' }, '[tool killed by SIGSEGV]'],
    [{ type: 'TimedOut' }, '[tool TIMEOUT after 250ms]'],
    [{ type: 'Cancelled' }, '[tool CANCELLED]'],
  ] as const)('heads the text with how the call ended: %j', async (end, header) => {
    expect(reportText(await outcome(end), SETTINGS, redactor)).toBe(`${header}\nout\n`);
  });

  it('warns of processes it could not kill and of output held open', async () => {
    const ended = await outcome({ type: 'Exited', code: 0 }, { survivors: [41, 42], outputHeldOpen: true });
    expect(reportText(ended, SETTINGS, redactor)).toBe(
      '[tool exit 0]\nout\n' +
        '[warning: 2 process(es) the call started could not be killed]\n' +
        '[warning: a process that escaped the call kept its output open; output may be incomplete]\n',
    );
  });
});
