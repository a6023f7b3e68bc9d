// The sessions page against the real API in its default configuration (no `auth:`, so one local
// principal; no `agents:`, so the scripted demo agent) with its own embedded PostgreSQL, in headless
// Chromium. The tests run in order: the first sees no session, the second creates two.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatMicroUsd } from '../lib/format';
import { isPng, screenshotDir } from './support/artifacts';
import { hasChromium, openPage } from './support/browser';
import { useRealStack } from './support/real-stack';
import { runtimeClient, type ListedSession, type RuntimeClient } from './support/runtime-client';
import { type RunningServer } from './support/servers';

describe.skipIf(!hasChromium)('sessions page with the real API', () => {
  const stack = useRealStack();

  function servers(): { client: RuntimeClient; dashboard: RunningServer; browser: Browser } {
    const { api, dashboard, browser } = stack();
    return { client: runtimeClient(api.url), dashboard, browser };
  }

  it('lists the demo agent with a scripted badge, and no sessions yet', async () => {
    const { client, dashboard, browser } = servers();
    const demo = (await client.listAgents()).find((agent) => agent.name === 'demo');
    expect(demo?.scripted).toBe(true);
    if (!demo) return;

    const { page, errors } = await openPage(browser);
    await page.goto(`${dashboard.url}/sessions`);
    expect(await page.title()).toBe('Sessions · Helios');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    expect(await nav.getByRole('link', { name: 'Sessions' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('credential').innerText()).toContain('no HELIOS_API_TOKEN');

    const row = page.locator('[data-testid="agent-row"][data-agent="demo"]');
    expect(await row.count()).toBe(1);
    expect(await row.getByTestId('agent-model').innerText()).toBe(demo.model);
    expect(await row.getByTestId('agent-preset').innerText()).toBe(demo.preset);
    const badge = row.getByTestId('scripted-badge');
    expect(await badge.isVisible()).toBe(true);
    expect(await badge.innerText()).toBe('scripted');
    expect(await badge.getAttribute('title')).toMatch(/^Scripted demo model, not a real LLM: /);
    expect(await page.getByTestId('scripted-note').innerText()).toContain('not a real LLM');

    expect(await page.getByTestId('sessions-empty').innerText()).toContain('No sessions yet');
    expect(await page.getByTestId('session-row').count()).toBe(0);
    // In <main>: Next's route announcer, elsewhere on the page, has role=alert too.
    expect(await page.locator('main').getByRole('alert').count()).toBe(0);

    expect(errors).toEqual([]);
    await page.close();
  });

  it("lists the caller's sessions newest first, as the API reports them", async () => {
    const { client, dashboard, browser } = servers();
    const talked = await client.createSession('demo');
    await client.sendMessage(talked, 'Hello, demo');
    // The demo's run reads its file, then waits for permission to write a note: a state that holds.
    await client.waitForSession(talked, (session) => session.pendingQuestions === 1);
    const fresh = await client.createSession('demo');
    const listed = await client.listSessions();
    expect(listed.map((session) => session.sessionId).sort()).toEqual([talked, fresh].sort());

    const { page, errors } = await openPage(browser);
    await page.goto(`${dashboard.url}/sessions`);
    const rows = page.getByTestId('session-row');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('data-session-id')).toBe(fresh);
    expect(await rows.nth(1).getAttribute('data-session-id')).toBe(talked);
    expect(await page.getByTestId('sessions-empty').count()).toBe(0);

    for (const session of listed) await expectRow(page, session);
    const talkedRow = rows.nth(1);
    expect(await talkedRow.getByTestId('session-status').innerText()).toContain('1 question waiting');
    expect(Number(await talkedRow.getByTestId('session-turns').innerText())).toBeGreaterThanOrEqual(1);
    expect(await rows.nth(0).getByTestId('session-status').innerText()).toBe('idle');
    expect(await rows.nth(0).getByTestId('session-turns').innerText()).toBe('0');

    const screenshot = join(await screenshotDir(stack().tempDir), 'sessions.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(await isPng(screenshot)).toBe(true);
    console.info(`sessions page screenshot: ${screenshot}`);

    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The session's row shows what `GET /v1/sessions` lists for it. */
async function expectRow(page: Page, session: ListedSession): Promise<void> {
  const row = page.locator(`[data-testid="session-row"][data-session-id="${session.sessionId}"]`);
  expect(await row.count()).toBe(1);
  expect(await row.getByTestId('session-id').innerText()).toBe(session.sessionId);
  const agent = row.getByTestId('session-agent');
  expect(await agent.innerText()).toContain(session.agent);
  expect(await agent.getByTestId('scripted-badge').isVisible()).toBe(true);
  expect(await row.locator('[data-status]').getAttribute('data-status')).toBe(session.status);
  expect(await row.getByTestId('session-turns').innerText()).toBe(String(session.turns));
  expect(await row.getByTestId('session-cost').innerText()).toBe(formatMicroUsd(session.costMicroUsd));
  expect(await row.locator('[data-testid="session-created"] time').getAttribute('datetime')).toBe(
    session.createdAt,
  );
  expect(await row.locator('[data-testid="session-updated"] time').getAttribute('datetime')).toBe(
    session.updatedAt,
  );
}
