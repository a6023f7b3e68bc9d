/**
 * The reference's cross-section rules that apply to Helios (§1.2). Dashboard-posture rules are left
 * out on purpose: Helios's dashboard is its own authenticated app and adapter approvals are native
 * tickets, so `dashboard.*` is accepted and validated for shape only (docs/governance/policy.md,
 * "Differences from the reference gateway").
 */
import { parseDuration } from './duration.js';
import { type PolicyDocument } from './policy-schema.js';
import { RESERVED_TRANSPORT_HEADERS } from './policy-schema.js';
import { type PolicyConfigIssue } from './policy-config-error.js';

type Add = (path: string, message: string) => void;
type Section = keyof PolicyDocument;

/** Each rule names the top-level sections it reads, so it can run while other sections are invalid. */
const CROSS_FIELD_RULES: readonly {
  readonly reads: readonly Section[];
  readonly check: (doc: PolicyDocument, add: Add) => void;
}[] = [
  { reads: ['upstream'], check: checkUpstream },
  { reads: ['listen'], check: checkListen },
  { reads: ['session'], check: checkSession },
  { reads: ['environment', 'policies'], check: checkRules },
  { reads: ['budgets'], check: checkBudgets },
  { reads: ['policies', 'budgets', 'sdk'], check: checkSenderKeys },
  { reads: ['approval', 'policies', 'budgets'], check: checkChannels },
  { reads: ['policies'], check: checkRevalidation },
];

/**
 * The cross-field problems of a document. `valid` says which sections passed the schema (all of them
 * when the whole document did): a rule runs only when every section it reads is valid, so one load
 * reports a schema error in one section together with a cross-field error in another.
 */
export function crossFieldIssues(
  doc: PolicyDocument,
  valid: (section: Section) => boolean = () => true,
): PolicyConfigIssue[] {
  const issues: PolicyConfigIssue[] = [];
  const add = (path: string, message: string): void => {
    issues.push({ path, message });
  };
  for (const rule of CROSS_FIELD_RULES) if (rule.reads.every(valid)) rule.check(doc, add);
  return issues;
}

function checkRevalidation(doc: PolicyDocument, add: Add): void {
  const interval = doc.policies.tool_revalidation?.interval;
  if (interval !== undefined && (parseDuration(interval) ?? 0) < 10_000) {
    add('policies.tool_revalidation.interval', 'must be at least 10s');
  }
}

function checkUpstream(doc: PolicyDocument, add: Add): void {
  const upstream = doc.upstream;
  if (!upstream) return;
  if (upstream.transport === 'stdio' && upstream.command === undefined) {
    add('upstream.command', 'is required when transport is "stdio"');
  }
  // Refused as the reference refuses it, so a policy that loads here loads there too.
  if (upstream.protocol_version === '2026-07-28' && upstream.transport !== 'streamable-http') {
    add('upstream.protocol_version', '"2026-07-28" requires transport "streamable-http"');
  }
  upstream.forward_headers.forEach((header, i) => {
    if (!header.toLowerCase().startsWith('x-')) {
      add(`upstream.forward_headers[${i}]`, 'forwarded caller headers must start with "x-"');
    }
  });
  for (const name of Object.keys(upstream.headers)) {
    if (RESERVED_TRANSPORT_HEADERS.has(name.toLowerCase())) {
      add(`upstream.headers.${name}`, `must not set reserved header "${name}"`);
    }
  }
}

function checkListen(doc: PolicyDocument, add: Add): void {
  doc.listen.allowed_origins.forEach((entry, i) => {
    const path = `listen.allowed_origins[${i}]`;
    if (entry === '*' || entry === 'null') {
      add(path, `"${entry}" cannot be allowlisted; list each http(s) origin exactly`);
      return;
    }
    let parsed: URL;
    try {
      parsed = new URL(entry);
    } catch {
      add(path, `"${entry}" is not a serialized origin (scheme://host[:port])`);
      return;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      add(path, `"${entry}" is not an http(s) origin`);
    } else if (parsed.origin !== entry) {
      add(path, `"${entry}" is not in serialized origin form; did you mean "${parsed.origin}"?`);
    }
  });
}

function checkSession(doc: PolicyDocument, add: Add): void {
  const seen = new Set<string>();
  doc.session.identity.forEach((source, i) => {
    if (source.source !== 'header') return;
    const path = `session.identity[${i}].name`;
    if (!source.name.startsWith('x-')) add(path, 'session identity header names must start with "x-"');
    if (RESERVED_TRANSPORT_HEADERS.has(source.name))
      add(path, `must not read reserved header "${source.name}"`);
    if (seen.has(source.name)) add(path, `duplicate session identity header "${source.name}"`);
    seen.add(source.name);
  });
}

function checkRules(doc: PolicyDocument, add: Add): void {
  const hasEnvironment = (doc.environment ?? '').trim() !== '';
  doc.policies.rules.forEach((rule, i) => {
    const path = `policies.rules[${i}]`;
    if (rule.match.environment !== undefined && !hasEnvironment) {
      add(`${path}.match.environment`, 'requires a non-blank top-level "environment"');
    }
    if (
      rule.action === 'rate_limit' &&
      (rule.limits?.max_calls === undefined || rule.limits.window === undefined)
    ) {
      add(`${path}.limits`, 'a rate_limit rule needs limits.max_calls and limits.window');
    }
    if (rule.action === 'spend_limit' && rule.limits?.max_spend === undefined) {
      add(`${path}.limits.max_spend`, 'a spend_limit rule needs limits.max_spend');
    }
  });
}

/** Sender ids come only from adapters: keying a limit or budget by them needs the adapter API on. */
function checkSenderKeys(doc: PolicyDocument, add: Add): void {
  if (doc.sdk.enabled) return;
  const message = 'key "sender_id" requires sdk.enabled: true (sender ids come from adapters)';
  doc.policies.rules.forEach((rule, i) => {
    if (rule.limits?.key === 'sender_id') add(`policies.rules[${i}].limits.key`, message);
    if (rule.limits?.max_spend?.key === 'sender_id')
      add(`policies.rules[${i}].limits.max_spend.key`, message);
  });
  doc.budgets.forEach((budget, i) => {
    if (budget.key === 'sender_id') add(`budgets[${i}].key`, message);
  });
}

function checkBudgets(doc: PolicyDocument, add: Add): void {
  const names = new Set<string>();
  doc.budgets.forEach((budget, i) => {
    const path = `budgets[${i}]`;
    if (names.has(budget.name)) add(`${path}.name`, `duplicate budget name "${budget.name}"`);
    names.add(budget.name);
    if (budget.window === 'session' && budget.key === 'global') {
      add(`${path}.key`, 'window "session" requires key "session" or "sender_id"');
    }
    if (budget.window !== 'session' && budget.idle_ttl !== undefined) {
      add(`${path}.idle_ttl`, 'idle_ttl only applies to window "session"');
    }
    if (budget.approval !== undefined && budget.on_exceed !== 'require_approval') {
      add(`${path}.approval`, 'approval only applies with on_exceed "require_approval"');
    }
  });
}

/** Approval routing must name a runtime channel key: `dashboard`, or a channel's `name ?? type`. */
function checkChannels(doc: PolicyDocument, add: Add): void {
  const keys = new Set<string>(['dashboard']);
  doc.approval.channels.forEach((channel, i) => {
    const key = channel.name ?? channel.type;
    const path = `approval.channels[${i}]`;
    if (key === 'dashboard' && channel.type !== 'dashboard') {
      add(`${path}.name`, '"dashboard" is reserved for dashboard-type channels');
    } else if (keys.has(key) && key !== 'dashboard') {
      add(`${path}.name`, `duplicate approval channel "${key}"`);
    }
    keys.add(key);
  });
  const checkRouting = (
    routing: { channel: string; delegates?: readonly string[] | undefined } | undefined,
    path: string,
  ): void => {
    if (!routing) return;
    if (!keys.has(routing.channel)) add(`${path}.channel`, `unknown approval channel "${routing.channel}"`);
    routing.delegates?.forEach((delegate, j) => {
      if (!keys.has(delegate)) add(`${path}.delegates[${j}]`, `unknown approval channel "${delegate}"`);
    });
  };
  doc.policies.rules.forEach((rule, i) => checkRouting(rule.approval, `policies.rules[${i}].approval`));
  doc.budgets.forEach((budget, i) => checkRouting(budget.approval, `budgets[${i}].approval`));
}
