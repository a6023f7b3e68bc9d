import type { Metadata } from 'next';
import { AutoRefresh } from '../components/AutoRefresh';
import { ReadinessBadge } from '../components/ReadinessBadge';
import { StatusDetails } from '../components/StatusDetails';
import { apiBaseUrl, fetchReadiness, fetchStatus } from '../lib/api';
import { formatTimestamp } from '../lib/format';

// Rendered per request: the page reports the API's state now, never a build-time snapshot.
export const dynamic = 'force-dynamic';

// The root layout's title template only applies to nested segments, so this page spells it out.
export const metadata: Metadata = { title: { absolute: 'Status · Helios' } };

const REFRESH_INTERVAL_MS = 10_000;

export default async function StatusPage() {
  const api = apiBaseUrl();
  // Both requests are independent; neither throws (failures come back as values to display).
  const [readiness, status] = await Promise.all([fetchReadiness(api), fetchStatus(api)]);
  const checkedAt = new Date().toISOString();

  return (
    <>
      <div className="page-header">
        <h1>Status</h1>
        <p className="muted">
          API <span className="mono">{api}</span> · checked{' '}
          <time dateTime={checkedAt} data-testid="checked-at">
            {formatTimestamp(checkedAt)}
          </time>{' '}
          · refreshes every {REFRESH_INTERVAL_MS / 1000} s
        </p>
      </div>
      <ReadinessBadge readiness={readiness} />
      <StatusDetails result={status} />
      <AutoRefresh intervalMs={REFRESH_INTERVAL_MS} />
    </>
  );
}
