/** The explanation behind every "scripted" badge (its tooltip, and the note under the agents table). */
export const SCRIPTED_EXPLANATION =
  'Scripted demo model, not a real LLM: its replies are pre-written and no model provider is called. ' +
  'Configure real agents under agents: in helios.yaml.';

// Marks an agent (or a session of one) whose model the API reports as scripted, so a demo reply is never
// mistaken for a real model's answer.
export function ScriptedBadge() {
  return (
    <span className="badge badge--scripted" data-testid="scripted-badge" title={SCRIPTED_EXPLANATION}>
      scripted
    </span>
  );
}
