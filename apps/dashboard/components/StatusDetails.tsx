import type { ReactNode } from 'react';
import type { StatusResult } from '../lib/api';
import { formatDatabaseKind, formatTimestamp, formatUptime } from '../lib/format';

// The instance facts from `GET /v1/status`, or the reason they could not be loaded.
export function StatusDetails({ result }: { readonly result: StatusResult }) {
  if (!result.ok) {
    return (
      <section className="card card--error" role="alert" data-testid="status-error">
        <h2 className="card-title">Instance details unavailable</h2>
        <p className="error-text">{result.error}</p>
        <p className="muted">Tried {result.url}</p>
      </section>
    );
  }
  const { status } = result;
  return (
    <section className="card" aria-labelledby="instance-title">
      <h2 className="card-title" id="instance-title">
        Instance
      </h2>
      <dl className="facts">
        <Fact label="Version" testId="version">
          {status.version}
        </Fact>
        <Fact label="Database" testId="database-kind">
          {formatDatabaseKind(status.database.kind)}
          {status.database.ready ? null : (
            <span className="fact-note">
              {' '}
              not ready{status.database.reason ? `: ${status.database.reason}` : ''}
            </span>
          )}
        </Fact>
        {status.instance ? (
          <>
            <Fact label="Instance ID" testId="instance-id" mono>
              {status.instance.id}
            </Fact>
            <Fact label="Start count" testId="start-count">
              {status.instance.startCount}
            </Fact>
            <Fact label="Last started" testId="last-started">
              <time dateTime={status.instance.lastStartedAt}>
                {formatTimestamp(status.instance.lastStartedAt)}
              </time>
            </Fact>
          </>
        ) : (
          <Fact label="Instance" testId="instance-id">
            <span className="muted">unknown until the database is ready</span>
          </Fact>
        )}
        <Fact label="Uptime" testId="uptime">
          {formatUptime(status.uptimeSeconds)}
        </Fact>
      </dl>
    </section>
  );
}

function Fact({
  label,
  testId,
  mono = false,
  children,
}: {
  readonly label: string;
  readonly testId: string;
  readonly mono?: boolean;
  readonly children: ReactNode;
}) {
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd className={mono ? 'mono' : undefined} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
