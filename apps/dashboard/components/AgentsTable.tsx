import type { Agent, RuntimeResult } from '../lib/runtime-api';
import { ApiErrorPanel } from './ApiErrorPanel';
import { SCRIPTED_EXPLANATION, ScriptedBadge } from './ScriptedBadge';

// The agents the caller may start sessions of (`GET /v1/agents`), scripted ones badged as such.
export function AgentsTable({ result }: { readonly result: RuntimeResult<Agent[]> }) {
  if (!result.ok) {
    return (
      <ApiErrorPanel
        title="Agents unavailable"
        failure={result.failure}
        error={result.error}
        url={result.url}
        testId="agents-error"
      />
    );
  }
  const agents = result.value;
  return (
    <section className="card" aria-labelledby="agents-title">
      <h2 className="card-title" id="agents-title">
        Agents
      </h2>
      {agents.length === 0 ? (
        <p className="empty-state" data-testid="agents-empty">
          No agents are configured.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="agents">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Model</th>
                <th scope="col">Preset</th>
                <th scope="col">Store</th>
              </tr>
            </thead>
            <tbody>
              {agents.map((agent) => (
                <tr key={agent.name} data-testid="agent-row" data-agent={agent.name}>
                  <th scope="row" className="nowrap" data-testid="agent-name">
                    {agent.name} {agent.scripted ? <ScriptedBadge /> : null}
                  </th>
                  <td className="mono" data-testid="agent-model">
                    {agent.model}
                  </td>
                  <td className="mono" data-testid="agent-preset">
                    {agent.preset}
                  </td>
                  <td data-testid="agent-store">{agent.store}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {agents.some((agent) => agent.scripted) ? (
        <p className="card-note muted" data-testid="scripted-note">
          <strong>scripted</strong> · {SCRIPTED_EXPLANATION}
        </p>
      ) : null}
    </section>
  );
}
