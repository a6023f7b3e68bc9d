import { NavLink } from './NavLink';

// The navigation lists the whole planned surface so the layout does not shift as pages arrive; entries
// without a page are plain text (not links) with the issue that will bring them.
type NavEntry =
  | { readonly kind: 'page'; readonly label: string; readonly href: string }
  | { readonly kind: 'planned'; readonly label: string; readonly issue: number };

const NAV_ENTRIES: readonly NavEntry[] = [
  { kind: 'page', label: 'Status', href: '/' },
  { kind: 'page', label: 'Sessions', href: '/sessions' },
  { kind: 'planned', label: 'Traces', issue: 4 },
  { kind: 'planned', label: 'Approvals', issue: 5 },
  { kind: 'planned', label: 'Budgets', issue: 5 },
  { kind: 'planned', label: 'Policies', issue: 5 },
  { kind: 'planned', label: 'Audit', issue: 5 },
];

export function Sidebar() {
  return (
    <nav className="sidebar" aria-label="Main navigation">
      <ul className="nav-list">
        {NAV_ENTRIES.map((entry) => (
          <li key={entry.label} className="nav-item" data-testid={`nav-${entry.label.toLowerCase()}`}>
            {entry.kind === 'page' ? (
              <NavLink href={entry.href}>{entry.label}</NavLink>
            ) : (
              <span className="nav-entry nav-entry--planned" aria-disabled="true">
                <span>{entry.label}</span>
                <small className="nav-note">coming with #{entry.issue}</small>
              </span>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
