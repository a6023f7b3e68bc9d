import type { Readiness } from '../lib/api';

// One element carries the state (colour + `data-state`) and the explanation, so what is wrong and which
// URL was tried are read together.
export function ReadinessBadge({ readiness }: { readonly readiness: Readiness }) {
  const { label, detail } = describe(readiness);
  return (
    <div
      className={`readiness readiness--${readiness.state}`}
      data-testid="readiness"
      data-state={readiness.state}
      role="status"
    >
      <span className="readiness-dot" aria-hidden="true" />
      <div className="readiness-text">
        <strong className="readiness-label">{label}</strong>
        {detail ? <span className="readiness-detail">{detail}</span> : null}
      </div>
    </div>
  );
}

function describe(readiness: Readiness): { label: string; detail: string | null } {
  switch (readiness.state) {
    case 'ready':
      return { label: 'Ready', detail: null };
    case 'not-ready':
      return { label: 'Not ready', detail: readiness.reason };
    case 'unreachable':
      return { label: 'API unreachable', detail: `${readiness.error}. Tried ${readiness.url}` };
    default: {
      const unknown: never = readiness;
      return unknown;
    }
  }
}
