#!/usr/bin/env node
// `npm start`: builds what is not built (Nx skips what is up to date), then runs the API (which applies
// migrations and, without DATABASE_URL, starts its embedded PostgreSQL) and the dashboard together.
// Ctrl-C (or SIGTERM) stops both gracefully; if either dies, the other is stopped too.
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = resolve(import.meta.dirname, '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NEXT_TELEMETRY_DISABLED: '1' };

console.log('helios: building (cached parts are skipped)…');
const build = spawnSync(
  'node',
  ['node_modules/nx/dist/bin/nx.js', 'run-many', '-t', 'build', '-p', 'api', 'dashboard'],
  {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
if (build.status !== 0) {
  console.error('helios: build failed; run `npx nx run-many -t build` to see why.');
  process.exit(1);
}

// The same configuration the API validates (helios.yaml + environment); its errors are printed as-is.
const { loadConfig } = await import(resolve(root, 'apps/api/dist/config/load-config.js'));
let config;
try {
  config = loadConfig(env).config;
} catch (error) {
  console.error(`helios: ${error.message}`);
  process.exit(2);
}
const host = config.server.host;
const urlHost = host.includes(':') ? `[${host}]` : host;
const apiUrl = `http://${urlHost}:${config.server.port}`;
const dashboardUrl = `http://${urlHost}:${config.dashboard.port}`;

const children = new Map();
let stopping = false;

/** Each child gets its own process group, so a terminal's Ctrl-C reaches only us and we stop them in order. */
function run(name, args, extraEnv) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: 'inherit',
    detached: true,
  });
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`helios: ${name} exited (${signal ?? code}); stopping the rest.`);
      void stopAll(1);
    } else if (children.size === 0) {
      process.exit(process.exitCode ?? 0);
    }
  });
  return child;
}

async function stopAll(exitCode) {
  if (stopping) return;
  stopping = true;
  process.exitCode = exitCode;
  // The dashboard first (it only reads the API), then the API, which drains and stops its database.
  for (const name of ['dashboard', 'api']) {
    const child = children.get(name);
    if (!child) continue;
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
  process.exit(exitCode);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

run('api', ['apps/api/dist/main.js'], {});
const deadline = Date.now() + 120_000;
while (!(await isReady(`${apiUrl}/readyz`))) {
  if (stopping) await new Promise(() => {}); // exiting through stopAll
  if (Date.now() > deadline) {
    console.error(`helios: the API did not become ready at ${apiUrl} within 120 s.`);
    await stopAll(1);
  }
  await sleep(250);
}
run(
  'dashboard',
  [
    'node_modules/next/dist/bin/next',
    'start',
    'apps/dashboard',
    '-p',
    String(config.dashboard.port),
    '-H',
    host,
  ],
  {
    HELIOS_API_URL: apiUrl,
  },
);

console.log(`
  Helios is running
    API        ${apiUrl}   (Swagger UI ${apiUrl}/docs)
    Dashboard  ${dashboardUrl}
    Database   ${config.database.url ? 'external (DATABASE_URL)' : `embedded, data in ${resolve(config.database.dataDir)}`}
  Press Ctrl-C to stop.
`);

async function isReady(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}
