/**
 * Cancellation helpers. Every wait in Helios takes an AbortSignal and ends the moment it fires, with
 * the signal's own reason, so a caller's cancellation arrives intact however deep it is observed.
 */

/** The error an aborted signal stands for: its reason when that is an Error, else a DOMException. */
export function abortReason(signal: AbortSignal): Error {
  return asAbortError(signal.reason);
}

/** An abort reason as an error: the reason itself when it is an Error, else a DOMException. */
export function asAbortError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new DOMException(reason === undefined ? 'The operation was aborted' : String(reason), 'AbortError');
}

/** True for errors that mean "cancelled", which must never be retried or turned into results. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortReason(signal);
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined); // the loser's rejection is not the caller's concern
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/** Waits `ms` milliseconds; an abort ends the wait at once with the signal's reason. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
