// Debian's Chromium driven by playwright-core (which never downloads a browser of its own).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from './paths';

export const hasChromium = existsSync(chromiumPath);

if (!hasChromium) {
  console.warn(
    `Skipping the dashboard browser tests: ${chromiumPath} was not found ` +
      '(install it with `apt-get install -y chromium`).',
  );
}

export function launchChromium(): Promise<Browser> {
  // No --user-data-dir: Playwright already gives every launch a fresh temporary profile, and rejects it.
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface WatchedPage {
  readonly page: Page;
  /** Uncaught exceptions and console errors seen in the page so far. */
  readonly errors: string[];
}

/** A new page that records what would show up as errors in the browser's console. */
export async function openPage(browser: Browser): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  return { page, errors };
}

/** `rgb(180, 35, 24)` → `red`: which channel dominates, to assert "green" or "red" without exact shades. */
export function dominantChannel(cssColor: string): 'red' | 'green' | 'blue' | 'none' {
  const match = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(cssColor);
  if (!match) return 'none';
  const [r, g, b] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (r > g && r > b) return 'red';
  if (g > r && g > b) return 'green';
  if (b > r && b > g) return 'blue';
  return 'none';
}
