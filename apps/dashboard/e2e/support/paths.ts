// Locations of the built apps the browser tests run against (they never run from sources).
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const dashboardDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const workspaceRoot = resolve(dashboardDir, '../..');
export const apiMain = resolve(workspaceRoot, 'apps/api/dist/main.js');
export const nextBin = resolve(workspaceRoot, 'node_modules/next/dist/bin/next');
export const chromiumPath = '/usr/bin/chromium';

/** Fails with the command that fixes it, rather than with a server that never comes up. */
export function assertBuilt(): void {
  if (!existsSync(apiMain)) {
    throw new Error(`${apiMain} is missing; run \`npx nx run api:build\` first`);
  }
  if (!existsSync(resolve(dashboardDir, '.next/BUILD_ID'))) {
    throw new Error('the dashboard is not built; run `npx nx run dashboard:build` first');
  }
}
