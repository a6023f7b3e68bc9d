import type { RuntimeResult, SessionSummary } from '../lib/runtime-api';
import {
  describeSessionStatus,
  formatMicroUsd,
  formatPendingQuestions,
  formatUtcDateTime,
} from '../lib/format';
import { ApiErrorPanel } from './ApiErrorPanel';
import { ScriptedBadge } from './ScriptedBadge';

// The caller's sessions (`GET /v1/sessions`), newest first. Sessions of a scripted agent carry its badge
// too, so a demo conversation reads as one wherever it is listed.
export function SessionsTable({
  result,
  scriptedAgents,
}: {
  readonly result: RuntimeResult<SessionSummary[]>;
  readonly scriptedAgents: ReadonlySet<string>;
}) {
  if (!result.ok) {
    return (
      <ApiErrorPanel
        title="Sessions unavailable"
        failure={result.failure}
        error={result.error}
        url={result.url}
        testId="sessions-error"
      />
    );
  }
  const sessions = result.value;
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 className="card-title" id="sessions-title">
        Sessions <span className="card-count muted">{sessions.length}</span>
      </h2>
      {sessions.length === 0 ? (
        <p className="empty-state" data-testid="sessions-empty">
          No sessions yet. Start one over the API: <code className="mono">POST /v1/sessions</code> with{' '}
          <code className="mono">{'{"agent": "<name>"}'}</code>.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="sessions">
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">Agent</th>
                <th scope="col">Status</th>
                <th scope="col" className="numeric">
                  Turns
                </th>
                <th scope="col" className="numeric">
                  Cost
                </th>
                <th scope="col">Created (UTC)</th>
                <th scope="col">Updated (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <SessionRow
                  key={session.sessionId}
                  session={session}
                  scripted={scriptedAgents.has(session.agent)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function SessionRow({ session, scripted }: { readonly session: SessionSummary; readonly scripted: boolean }) {
  const pending = formatPendingQuestions(session.pendingQuestions);
  return (
    <tr data-testid="session-row" data-session-id={session.sessionId}>
      <th scope="row" className="mono id-cell" data-testid="session-id">
        {session.sessionId}
      </th>
      <td className="nowrap" data-testid="session-agent">
        {session.agent} {scripted ? <ScriptedBadge /> : null}
      </td>
      <td data-testid="session-status">
        <span
          className={`status-pill status-pill--${session.status}`}
          title={describeSessionStatus(session.status)}
          data-status={session.status}
        >
          {session.status}
        </span>
        {session.lastResult ? <span className="cell-note">last run: {session.lastResult}</span> : null}
        {pending ? <span className="cell-note cell-note--attention">{pending}</span> : null}
      </td>
      <td className="numeric" data-testid="session-turns">
        {session.turns}
      </td>
      <td className="numeric mono" data-testid="session-cost">
        {formatMicroUsd(session.costMicroUsd)}
      </td>
      <td data-testid="session-created">
        <time dateTime={session.createdAt}>{formatUtcDateTime(session.createdAt)}</time>
      </td>
      <td data-testid="session-updated">
        <time dateTime={session.updatedAt}>{formatUtcDateTime(session.updatedAt)}</time>
      </td>
    </tr>
  );
}
