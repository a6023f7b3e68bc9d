// The sessions page against a real API that requires a token (`auth.tokens` in its helios.yaml), in
// headless Chromium: with HELIOS_API_TOKEN the dashboard sends it (and only the server ever holds it);
// without it, or with a token the API does not accept, the page names the variable to set.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPng, screenshotDir } from './support/artifacts';
import { dominantChannel, hasChromium, launchChromium, openPage } from './support/browser';
import { assertBuilt } from './support/paths';
import { stopServer } from './support/process-group';
import { runtimeClient } from './support/runtime-client';
import { startApi, startDashboard, type RunningServer } from './support/servers';

const TOKEN = `e2e-${randomBytes(24).toString('hex')}`;
const WRONG_TOKEN = `e2e-wrong-${randomBytes(24).toString('hex')}`;

describe.skipIf(!hasChromium)('sessions page with an API that requires a token', () => {
  let tempDir = '';
  let dataDir = '';
  let api: RunningServer | undefined;
  const dashboards: { withToken?: RunningServer; withoutToken?: RunningServer; wrongToken?: RunningServer } =
    {};
  let browser: Browser | undefined;

  beforeAll(async () => {
    assertBuilt();
    tempDir = await mkdtemp(join(tmpdir(), 'helios-dashboard-e2e-'));
    dataDir = await mkdtemp(join(tmpdir(), 'helios-api-data-'));
    // The API runs in its data directory, where it reads ./helios.yaml.
    const config = `auth:\n  tokens:\n    - { token: '${TOKEN}', tenant: acme, subject: alice }\n`;
    await writeFile(join(dataDir, 'helios.yaml'), config, { mode: 0o600 });
    api = await startApi(dataDir);
    dashboards.withToken = await startDashboard(api.url, { HELIOS_API_TOKEN: TOKEN });
    dashboards.withoutToken = await startDashboard(api.url);
    dashboards.wrongToken = await startDashboard(api.url, { HELIOS_API_TOKEN: WRONG_TOKEN });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    for (const dashboard of Object.values(dashboards)) await stopServer(dashboard.process);
    if (api) await stopServer(api.process);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  });

  function running(dashboard: RunningServer | undefined): {
    api: RunningServer;
    url: string;
    browser: Browser;
  } {
    if (!api || !dashboard || !browser) throw new Error('servers did not start');
    return { api, url: `${dashboard.url}/sessions`, browser };
  }

  it("sends HELIOS_API_TOKEN and shows its principal's sessions, never the token itself", async () => {
    const { api, url, browser } = running(dashboards.withToken);
    // The API really refuses a request without the token, so what the page shows is the token's doing.
    expect((await fetch(`${api.url}/v1/sessions`)).status).toBe(401);
    const sessionId = await runtimeClient(api.url, TOKEN).createSession('demo');

    const { page, errors } = await openPage(browser);
    const response = await page.goto(url);
    expect(await page.getByTestId('credential').innerText()).toBe('authenticated with HELIOS_API_TOKEN');
    const demo = page.locator('[data-testid="agent-row"][data-agent="demo"]');
    expect(await demo.getByTestId('scripted-badge').isVisible()).toBe(true);
    const rows = page.getByTestId('session-row');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-session-id')).toBe(sessionId);
    // In <main>: Next's route announcer, elsewhere on the page, has role=alert too.
    expect(await page.locator('main').getByRole('alert').count()).toBe(0);

    // Neither the HTML (with its inline React payload) nor the rendered page carries the token.
    expect(await response?.text()).not.toContain(TOKEN);
    expect(await page.content()).not.toContain(TOKEN);

    expect(errors).toEqual([]);
    await page.close();
  });

  it('without HELIOS_API_TOKEN, explains the 401 and names the variable to set', async () => {
    const { url, browser } = running(dashboards.withoutToken);
    const { page, errors } = await openPage(browser);
    await page.goto(url);

    expect(await page.getByTestId('credential').innerText()).toContain('no HELIOS_API_TOKEN');
    for (const testId of ['agents-error', 'sessions-error']) {
      const panel = page.getByTestId(testId);
      expect(await panel.getAttribute('data-failure')).toBe('unauthenticated');
      const text = await panel.innerText();
      expect(text).toContain('HTTP 401');
      expect(text).toContain('HELIOS_API_TOKEN is not set');
      expect(text).toContain('Set HELIOS_API_TOKEN');
    }
    const reason = page.getByTestId('agents-error').locator('.error-text');
    expect(dominantChannel(await reason.evaluate((element) => getComputedStyle(element).color))).toBe('red');
    expect(await page.getByTestId('agent-row').count()).toBe(0);
    expect(await page.getByTestId('session-row').count()).toBe(0);

    const screenshot = join(await screenshotDir(tempDir), 'sessions-unauthenticated.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(await isPng(screenshot)).toBe(true);

    expect(errors).toEqual([]);
    await page.close();
  });

  it('with a token the API does not accept, says that token was refused', async () => {
    const { url, browser } = running(dashboards.wrongToken);
    const { page, errors } = await openPage(browser);
    const response = await page.goto(url);

    for (const testId of ['agents-error', 'sessions-error']) {
      const panel = page.getByTestId(testId);
      expect(await panel.getAttribute('data-failure')).toBe('unauthenticated');
      expect(await panel.innerText()).toContain('The API refused the token in HELIOS_API_TOKEN');
    }
    expect(await page.getByTestId('session-row').count()).toBe(0);
    expect(await response?.text()).not.toContain(WRONG_TOKEN);

    expect(errors).toEqual([]);
    await page.close();
  });
});
