/**
 * The text the model gets for a finished grant call: a header saying how the call ended, stdout, then
 * stderr when the grant shows it (otherwise only its size), then any warning about processes or
 * streams the call could not end. A stream the cap cut first loses any trailing start of a registered
 * secret, then says it was cut; the whole text is redacted with one fresh snapshot of the registry.
 */
import { assertNever } from '../common/validate.js';
import { type Redactor } from '../secrets/redactor.js';
import { type CommandEnd, type CommandOutcome } from './command-run.js';
import { type OutputCapture } from './output-capture.js';

export interface ReportSettings {
  readonly name: string;
  readonly timeoutMs: number;
  readonly stderrToModel: boolean;
}

export function reportText(outcome: CommandOutcome, settings: ReportSettings, redactor: Redactor): string {
  const parts = [`${header(settings, outcome.end)}\n`, streamText(outcome.stdout, redactor)];
  const stderrBytes = outcome.stderr.totalBytes;
  if (stderrBytes > 0) {
    parts.push(
      settings.stderrToModel
        ? `[stderr]\n${streamText(outcome.stderr, redactor)}`
        : `[stderr hidden: ${stderrBytes} bytes]\n`,
    );
  }
  if (outcome.survivors.length > 0) {
    parts.push(`[warning: ${outcome.survivors.length} process(es) the call started could not be killed]\n`);
  }
  if (outcome.outputHeldOpen) {
    parts.push('[warning: a process that escaped the call kept its output open; output may be incomplete]\n');
  }
  return redactor.redactText(parts.join(''));
}

function header({ name, timeoutMs }: ReportSettings, end: CommandEnd): string {
  switch (end.type) {
    case 'Exited':
      return `[${name} exit ${end.code}]`;
    case 'Killed':
      return `[${name} killed by ${end.signal}]`;
    case 'TimedOut':
      return `[${name} TIMEOUT after ${timeoutMs}ms]`;
    case 'Cancelled':
      return `[${name} CANCELLED]`;
    default:
      return assertNever(end, 'command end');
  }
}

/** One stream's text, ending in a newline when not empty. */
function streamText(capture: OutputCapture, redactor: Redactor): string {
  let text = capture.text();
  if (capture.truncated) {
    text = `${redactor.trimPartialSecret(text)}\n[output cut at ${capture.keptBytes} of ${capture.totalBytes} bytes]`;
  }
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}
