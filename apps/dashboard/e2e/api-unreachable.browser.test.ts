// The status page when nothing listens at HELIOS_API_URL: it must say so (and where it looked), not fail.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPng, screenshotDir } from './support/artifacts';
import { dominantChannel, hasChromium, launchChromium, openPage } from './support/browser';
import { assertBuilt } from './support/paths';
import { freePort } from './support/ports';
import { stopServer } from './support/process-group';
import { startDashboard, type RunningServer } from './support/servers';

describe.skipIf(!hasChromium)('status page when the API is unreachable', () => {
  let tempDir = '';
  let apiUrl = '';
  let dashboard: RunningServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    assertBuilt();
    tempDir = await mkdtemp(join(tmpdir(), 'helios-dashboard-e2e-'));
    // A port that was just free and is now closed: connections to it are refused.
    apiUrl = `http://127.0.0.1:${await freePort()}`;
    dashboard = await startDashboard(apiUrl);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (dashboard) await stopServer(dashboard.process);
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  });

  it('shows a red "API unreachable" badge naming the URL it tried', async () => {
    if (!dashboard || !browser) throw new Error('servers did not start');
    const { page, errors } = await openPage(browser);
    await page.goto(dashboard.url);

    const badge = page.getByTestId('readiness');
    expect(await badge.getAttribute('data-state')).toBe('unreachable');
    const text = await badge.innerText();
    expect(text).toContain('API unreachable');
    expect(text).toContain(`${apiUrl}/readyz`);
    expect(dominantChannel(await badge.evaluate((element) => getComputedStyle(element).color))).toBe('red');

    // The instance facts are replaced by the reason, and the shell still renders.
    expect(await page.getByTestId('status-error').innerText()).toContain(`${apiUrl}/v1/status`);
    expect(await page.getByTestId('version').count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).locator('li').count()).toBe(7);

    const screenshot = join(await screenshotDir(tempDir), 'status-unreachable.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(await isPng(screenshot)).toBe(true);

    expect(errors).toEqual([]);
    await page.close();
  });
});
