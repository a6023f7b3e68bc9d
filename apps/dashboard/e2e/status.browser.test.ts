// The status page against the real API with its own embedded PostgreSQL, in headless Chromium.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPng, screenshotDir } from './support/artifacts';
import { dominantChannel, hasChromium, openPage } from './support/browser';
import { useRealStack } from './support/real-stack';

const PAGES = [
  ['Status', '/'],
  ['Sessions', '/sessions'],
] as const;

const PLANNED = [
  ['Traces', 4],
  ['Approvals', 5],
  ['Budgets', 5],
  ['Policies', 5],
  ['Audit', 5],
] as const;

describe.skipIf(!hasChromium)('status page with the real API', () => {
  const servers = useRealStack();

  it('shows the header and all seven navigation entries, with Status and Sessions as links', async () => {
    const { dashboard, browser } = servers();
    const { page, errors } = await openPage(browser);
    await page.goto(dashboard.url);

    await expect.poll(() => page.locator('header').innerText()).toContain('Helios');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect.poll(() => nav.locator('li').count()).toBe(7);

    const links = nav.locator('a');
    expect(await links.count()).toBe(PAGES.length);
    for (const [index, [label, href]] of PAGES.entries()) {
      const link = links.nth(index);
      expect(await link.innerText()).toBe(label);
      expect(await link.getAttribute('href')).toBe(href);
      // Only the page being shown is marked current.
      expect(await link.getAttribute('aria-current')).toBe(href === '/' ? 'page' : null);
    }

    for (const [label, issue] of PLANNED) {
      const entry = nav.getByTestId(`nav-${label.toLowerCase()}`);
      const text = await entry.innerText();
      expect(text).toContain(label);
      expect(text).toContain(`coming with #${issue}`);
      expect(await entry.locator('a').count()).toBe(0);
    }
    // The planned-work labels belong to the navigation only.
    expect(await page.locator('main').innerText()).not.toContain('coming with');
    expect(await page.locator('header').innerText()).not.toContain('coming with');

    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a green Ready badge, the embedded database and the API's version and instance", async () => {
    const { api, dashboard, browser } = servers();
    const response = await fetch(`${api.url}/v1/status`);
    expect(response.status).toBe(200);
    const status = (await response.json()) as { version: string; instance: { id: string } };

    const { page, errors } = await openPage(browser);
    await page.goto(dashboard.url);

    const badge = page.getByTestId('readiness');
    expect(await badge.getAttribute('data-state')).toBe('ready');
    expect(await badge.innerText()).toContain('Ready');
    expect(dominantChannel(await badge.evaluate((element) => getComputedStyle(element).color))).toBe('green');

    expect(await page.getByTestId('version').innerText()).toBe(status.version);
    expect(await page.getByTestId('database-kind').innerText()).toContain('Embedded PostgreSQL');
    expect(await page.getByTestId('instance-id').innerText()).toBe(status.instance.id);
    expect(Number(await page.getByTestId('start-count').innerText())).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('uptime').innerText()).toMatch(/\d+ (s|min|h|d)\b/);

    const screenshot = join(await screenshotDir(servers().tempDir), 'status-ready.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(await isPng(screenshot)).toBe(true);
    console.info(`status page screenshot: ${screenshot}`);

    expect(errors).toEqual([]);
    await page.close();
  });

  it('refreshes itself within about ten seconds without a reload', async () => {
    const { dashboard, browser } = servers();
    const { page, errors } = await openPage(browser);
    await page.goto(dashboard.url);
    const checkedAt = page.getByTestId('checked-at');
    const first = await checkedAt.getAttribute('datetime');
    // A marker on window survives router.refresh() but not a full reload.
    await page.evaluate(() => Object.assign(window, { heliosMarker: true }));

    await expect
      .poll(() => checkedAt.getAttribute('datetime'), { timeout: 15_000, interval: 500 })
      .not.toBe(first);
    expect(await page.evaluate(() => 'heliosMarker' in window)).toBe(true);
    expect(await page.getByTestId('readiness').getAttribute('data-state')).toBe('ready');

    expect(errors).toEqual([]);
    await page.close();
  });
});
