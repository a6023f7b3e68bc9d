/**
 * The session's side of the execution provider's lifecycle: start at open (a refusal or an ordinary
 * failure makes open throw SessionUnavailableError, redacted; a programming error passes through as
 * the same instance), end at close within what is left of the stopGrace deadline.
 */
import { isProgrammingError } from '@helios/core';
import { SessionUnavailableError } from '../errors.js';
import { type SessionCore } from '../loop/session-core.js';
import { within } from '../within.js';
import { NOOP_EXECUTION_PROVIDER } from './execution-provider.js';

export async function startExecution(core: SessionCore): Promise<void> {
  const provider = core.options.executionProvider;
  if (provider === NOOP_EXECUTION_PROVIDER) return; // nothing to start, nothing to end
  const refused = (reason: string, cause?: unknown): SessionUnavailableError =>
    new SessionUnavailableError(
      core.redaction.text(`execution provider ${provider.name} refused session ${core.sessionId}: ${reason}`),
      cause === undefined ? undefined : { cause: core.redaction.errorForLog(cause) },
    );
  let outcome;
  try {
    outcome = await provider.onSessionStart(core.executionContext);
  } catch (error) {
    if (isProgrammingError(error)) throw error;
    throw refused(error instanceof Error ? error.message : String(error), error);
  }
  if (outcome.type === 'Refuse') throw refused(outcome.reason, outcome.cause);
  core.executionStarted = true;
}

/** Ends an accepted provider; waits at most until `deadline` (epoch ms), logs failures, never throws. */
export async function endExecution(core: SessionCore, deadline: number): Promise<void> {
  if (!core.executionStarted) return;
  core.executionStarted = false;
  const { executionProvider: provider, logger } = core.options;
  const controller = new AbortController();
  const ending = Promise.resolve()
    .then(() => provider.onSessionEnd(core.executionContext, controller.signal))
    .then(
      () => undefined,
      (error: unknown) => {
        const log = isProgrammingError(error) ? logger.error : logger.warn;
        log(`execution provider ${provider.name} failed to end`, core.redaction.errorForLog(error));
      },
    );
  if (!(await within(ending, deadline - Date.now()))) {
    controller.abort(new DOMException('the close deadline passed', 'TimeoutError'));
    logger.warn(`execution provider ${provider.name} still ending at the close deadline; not waiting`);
  }
}
