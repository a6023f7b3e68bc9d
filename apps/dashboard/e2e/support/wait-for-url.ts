import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerProcess } from './process-group';

/**
 * Polls `url` until it answers 200. Fails early, with the server's output, when the server exits, and
 * after `timeoutMs` otherwise.
 */
export async function waitForUrl(url: string, server: ServerProcess, timeoutMs: number): Promise<void> {
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(`${server.name} exited before ${url} answered 200:\n${server.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (${last}):\n${server.output()}`);
}
