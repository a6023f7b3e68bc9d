import type { Metadata } from 'next';
import { AgentsTable } from '../../components/AgentsTable';
import { AutoRefresh } from '../../components/AutoRefresh';
import { SessionsTable } from '../../components/SessionsTable';
import { apiBaseUrl } from '../../lib/api';
import { formatTimestamp } from '../../lib/format';
import { API_TOKEN_VARIABLE, apiToken, fetchAgents, fetchSessions } from '../../lib/runtime-api';

// Rendered per request on the server: the sessions change while the page is open, and the token that
// authenticates the dashboard (HELIOS_API_TOKEN) must stay on the server.
export const dynamic = 'force-dynamic';

// A nested segment, so the root layout's template makes this "Sessions · Helios".
export const metadata: Metadata = { title: 'Sessions' };

const REFRESH_INTERVAL_MS = 10_000;

export default async function SessionsPage() {
  const api = apiBaseUrl();
  const token = apiToken();
  // Both requests are independent; neither throws (failures come back as values to display).
  const [agents, sessions] = await Promise.all([fetchAgents(api, token), fetchSessions(api, token)]);
  const scriptedAgents = new Set(agents.ok ? agents.value.filter((a) => a.scripted).map((a) => a.name) : []);
  const checkedAt = new Date().toISOString();

  return (
    <>
      <div className="page-header">
        <h1>Sessions</h1>
        <p className="muted">
          API <span className="mono">{api}</span> ·{' '}
          <span data-testid="credential">
            {token ? `authenticated with ${API_TOKEN_VARIABLE}` : `no ${API_TOKEN_VARIABLE} set`}
          </span>{' '}
          · checked{' '}
          <time dateTime={checkedAt} data-testid="checked-at">
            {formatTimestamp(checkedAt)}
          </time>{' '}
          · refreshes every {REFRESH_INTERVAL_MS / 1000} s
        </p>
      </div>
      <AgentsTable result={agents} />
      <SessionsTable result={sessions} scriptedAgents={scriptedAgents} />
      <AutoRefresh intervalMs={REFRESH_INTERVAL_MS} />
    </>
  );
}
