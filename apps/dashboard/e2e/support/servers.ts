// The two real servers under test, started from their builds exactly as an operator would start them.
import { startServer, type ServerEnv, type ServerProcess } from './process-group';
import { freePort } from './ports';
import { apiMain, dashboardDir, nextBin, workspaceRoot } from './paths';
import { waitForUrl } from './wait-for-url';

// Cold start of the embedded PostgreSQL (initdb + migrations) is the slow part.
const API_START_TIMEOUT_MS = 60_000;
const DASHBOARD_START_TIMEOUT_MS = 30_000;

export interface RunningServer {
  readonly url: string;
  readonly process: ServerProcess;
}

/**
 * Starts `apps/api/dist/main.js` with its own embedded database in `dataDir` (no `DATABASE_URL`), and
 * resolves once `/healthz` and then `/readyz` answer 200.
 */
export async function startApi(dataDir: string): Promise<RunningServer> {
  const port = await freePort();
  // No DATABASE_URL, so the API starts its embedded database. No NODE_ENV either: vitest sets it to
  // `test` for itself, and the API should run as it does when an operator starts it.
  const { DATABASE_URL: _databaseUrl, NODE_ENV: _nodeEnv, ...inherited } = process.env;
  const env: ServerEnv = {
    ...inherited,
    HOST: '127.0.0.1',
    PORT: String(port),
    HELIOS_DATA_DIR: dataDir,
  };
  // cwd is the data directory too, so a stray helios.yaml or .helios/ in the checkout cannot leak in.
  const server = startServer('api', process.execPath, [apiMain], { env, cwd: dataDir });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + API_START_TIMEOUT_MS;
  await waitForUrl(`${url}/healthz`, server, API_START_TIMEOUT_MS);
  await waitForUrl(`${url}/readyz`, server, Math.max(1_000, deadline - Date.now()));
  return { url, process: server };
}

/**
 * Starts the built dashboard with `next start`, talking to the API at `apiUrl`; `extraEnv` adds to its
 * environment (e.g. `HELIOS_API_TOKEN`).
 */
export async function startDashboard(apiUrl: string, extraEnv: ServerEnv = {}): Promise<RunningServer> {
  const port = await freePort();
  // A HELIOS_API_TOKEN of the shell running the tests must not decide what the dashboard sends.
  const { HELIOS_API_TOKEN: _token, ...inherited } = process.env;
  const env: ServerEnv = {
    ...inherited,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    HELIOS_API_URL: apiUrl,
    ...extraEnv,
  };
  const server = startServer(
    'dashboard',
    process.execPath,
    [nextBin, 'start', dashboardDir, '-p', String(port), '-H', '127.0.0.1'],
    { env, cwd: workspaceRoot },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(`${url}/`, server, DASHBOARD_START_TIMEOUT_MS);
  return { url, process: server };
}
