// The built API (default configuration, a data directory of its own, empty, as a first start on a new
// machine would have) with its embedded PostgreSQL, the built dashboard pointing at it, and headless
// Chromium: started before a file's tests and stopped after them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser';
import { assertBuilt } from './paths';
import { stopServer } from './process-group';
import { startApi, startDashboard, type RunningServer } from './servers';

export interface RealStack {
  readonly api: RunningServer;
  readonly dashboard: RunningServer;
  readonly browser: Browser;
  /** A scratch directory of the file's own (screenshots). */
  readonly tempDir: string;
}

/** Registers the file's beforeAll/afterAll; the returned function gives the running stack to a test. */
export function useRealStack(): () => RealStack {
  let tempDir = '';
  let dataDir = '';
  let api: RunningServer | undefined;
  let dashboard: RunningServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    assertBuilt();
    tempDir = await mkdtemp(join(tmpdir(), 'helios-dashboard-e2e-'));
    dataDir = await mkdtemp(join(tmpdir(), 'helios-api-data-'));
    api = await startApi(dataDir);
    dashboard = await startDashboard(api.url);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (dashboard) await stopServer(dashboard.process);
    // Waits for the API (and the embedded database it started) to exit before its directory goes.
    if (api) await stopServer(api.process);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  });

  return () => {
    if (!api || !dashboard || !browser) throw new Error('servers did not start');
    return { api, dashboard, browser, tempDir };
  };
}
