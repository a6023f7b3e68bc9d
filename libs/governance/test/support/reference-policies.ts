/**
 * Policies equivalent to the ones the reference gateway ships and documents (its example and docker
 * configs and the yaml blocks of its READMEs and docs: 80 today), generated from a catalogue of the
 * features they use rather than copied: every action; rate and spend limits with and without a key;
 * budgets of both window kinds with contributor conditions and break-glass approval; grounding; install
 * rules; approval channels, routing and escalation; every section with its settings; `${VAR}`
 * interpolation; `x-` anchors with `<<` merge keys. Names and values are our own.
 *
 * Like the reference's own sample check, a fragment (one section, one rule, a rule list, a budget list)
 * is laid over a base that satisfies the cross-references fragments lean on (an environment, named
 * approval channels, a dashboard secret), so each generated policy is one the reference accepts too.
 */
import { stringify } from 'yaml';

type Doc = Record<string, unknown>;

export interface GeneratedPolicy {
  readonly name: string;
  readonly text: string;
  /** A value for every `${VAR}` the text uses. */
  readonly env: Record<string, string>;
  readonly rules: number;
  readonly budgets: number;
}

const BASE: Doc = {
  version: '1',
  upstream: { url: 'http://127.0.0.1:9800/mcp' },
  environment: 'prod',
  approval: {
    channels: [
      { type: 'slack', bot_token: '${CHAT_BOT_TOKEN}', signing_secret: '${CHAT_SIGNING}', channel: '#ops' },
      { type: 'webhook', name: 'hooks', url: 'https://approvals.invalid/hook' },
    ],
  },
  dashboard: { api_secret: '${PANEL_SECRET}' },
};

const contributor = (tool: string, field: string, input?: Doc): Doc => ({
  match: input === undefined ? { tool } : { tool, input },
  field,
});

/** One rule per shape the reference's samples use (and a few they imply). */
export const RULE_SHAPES: Readonly<Record<string, Doc>> = {
  'allow by prefix glob': { name: 'reads', match: { tool: 'fetch_*' }, action: 'allow' },
  'allow read-only tools': { match: { annotations: { readOnlyHint: true } }, action: 'allow' },
  'deny destructive tools with feedback': {
    name: 'no-destructive',
    match: { annotations: { destructiveHint: true } },
    action: 'deny',
    feedback: { message: 'Destructive tools are off.', suggestion: 'Ask a person to run it.' },
  },
  'deny by glob, match only': { match: { tool: 'purge_*' }, action: 'deny' },
  'deny everything': { name: 'catch-all', match: { tool: '*' }, action: 'deny' },
  'deny an inner glob': { match: { tool: 'exec_*_sql' }, action: 'deny' },
  'deny a dotted namespace': { match: { tool: 'ledger.*' }, action: 'deny' },
  'deny one exact tool': { name: 'no-drop', match: { tool: 'drop_table' }, action: 'deny' },
  'input thresholds to approval': {
    name: 'large-transfer',
    match: { tool: 'transfer_funds', input: { '$.amount': { gt: 1000 }, currency: { eq: 'EUR' } } },
    action: 'require_approval',
    approval: { channel: 'slack', timeout: '600s' },
    feedback: { message: 'Transfers over 1000 need a person.' },
  },
  'input range': {
    match: { tool: 'issue_credit', input: { '$.value': { gte: 10, lte: 500 } } },
    action: 'allow',
  },
  'environment-scoped rule': { match: { tool: 'deploy_*', environment: 'prod' }, action: 'deny' },
  'metadata shorthand': { match: { tool: 'post_*', metadata: { channel_id: 'C0PS' } }, action: 'allow' },
  'metadata regex': { match: { metadata: { sender_id: { regex: '^GUEST-' } } }, action: 'deny' },
  'metadata agent_id': { match: { metadata: { agent_id: 'helper-bot' } }, action: 'deny' },
  'approval without a block': { match: { tool: 'rotate_keys' }, action: 'require_approval' },
  'approval on the dashboard': {
    match: { tool: 'grant_role' },
    action: 'require_approval',
    approval: { channel: 'dashboard', timeout: '120s' },
  },
  'approval with escalation': {
    name: 'payouts',
    match: { tool: 'payout_*' },
    action: 'require_approval',
    approval: { channel: 'slack', timeout: '600s', escalation_after: '300s', delegates: ['hooks'] },
  },
  'approval on a webhook': {
    match: { tool: 'close_account' },
    action: 'require_approval',
    approval: { channel: 'hooks', timeout: '5m' },
  },
  'rate by tool': {
    name: 'search-rate',
    match: { tool: 'search_*' },
    action: 'rate_limit',
    limits: { max_calls: 30, window: '1m', key: 'tool' },
    feedback: { message: 'Too many searches.', suggestion: 'Wait a minute.' },
  },
  'rate by session': {
    match: { tool: 'send_sms' },
    action: 'rate_limit',
    limits: { max_calls: 5, window: '1h', key: 'session' },
  },
  'rate, default key': {
    match: { tool: 'geocode' },
    action: 'rate_limit',
    limits: { max_calls: 100, window: '24h' },
  },
  'spend by tool': {
    name: 'refund-spend',
    match: { tool: 'refund_order' },
    action: 'spend_limit',
    limits: { max_spend: { field: '$.amount', limit: 5000, currency: 'EUR', window: '24h', key: 'tool' } },
  },
  'spend by session': {
    match: { tool: 'buy_credits' },
    action: 'spend_limit',
    limits: { max_spend: { field: '$.total', limit: 200, currency: 'EUR', window: '7d', key: 'session' } },
  },
  'spend with input condition, default key': {
    match: { tool: 'charge_card', input: { '$.amount': { gte: 0 } } },
    action: 'spend_limit',
    limits: { max_spend: { field: 'amount', limit: 99.5, currency: 'USD', window: '1h' } },
  },
  'dry-run rule': { name: 'trial', match: { tool: 'bulk_*' }, action: 'dry_run' },
  'grounded rule': {
    name: 'send-after-lookup',
    match: { tool: 'send_email' },
    action: 'allow',
    evidence: { requires: ['verified_recipient'] },
    requires: ['lookup_contact'],
    requires_success: false,
  },
  'limits on an allow rule': {
    name: 'noted',
    match: { tool: 'notes_*' },
    action: 'allow',
    limits: { max_calls: 10, window: '1m' },
  },
};

const BUDGET_SHAPES: readonly Doc[] = [
  {
    name: 'daily-cloud',
    limit: 500,
    currency: 'EUR',
    window: '24h',
    contributors: [
      contributor('vm_*', '$.estimate', { '$.kind': { eq: 'spot' } }),
      contributor('vm_*', '$.cost'),
    ],
  },
  {
    name: 'per-session',
    limit: 50,
    currency: 'EUR',
    window: 'session',
    key: 'session',
    idle_ttl: '2h',
    on_exceed: 'deny',
    contributors: [contributor('ads_*', 'budget')],
  },
  {
    name: 'glass',
    limit: 1000,
    currency: 'USD',
    window: '7d',
    key: 'global',
    on_exceed: 'require_approval',
    approval: { channel: 'dashboard', timeout: '300s' },
    contributors: [contributor('wire_*', '$.amount'), contributor('card_*', '$.amount')],
  },
  {
    name: 'session-glass',
    limit: 20,
    currency: 'USD',
    window: 'session',
    key: 'session',
    on_exceed: 'require_approval',
    contributors: [contributor('tip_*', '$.amount')],
  },
];

/** Whole sections, each laid over the base on its own. */
const SECTION_SHAPES: Readonly<Record<string, Doc>> = {
  'upstream, streamable-http with headers': {
    upstream: {
      url: '${UPSTREAM_URL}',
      transport: 'streamable-http',
      protocol_version: 'auto',
      connect_timeout: '10s',
      request_timeout: '30s',
      forward_headers: ['x-tenant'],
      headers: { Authorization: 'Bearer ${UPSTREAM_TOKEN}' },
    },
  },
  'upstream, stdio': {
    upstream: { url: 'stdio://tools', transport: 'stdio', command: 'node', args: ['server.js', '--quiet'] },
  },
  'upstream, sse pinned': {
    upstream: { url: 'http://127.0.0.1:9801/sse', transport: 'sse', protocol_version: '2025-06-18' },
  },
  listen: { listen: { port: 3300, host: '0.0.0.0', allowed_origins: ['http://localhost:5173'] } },
  'session identity': {
    session: {
      identity: [
        { source: 'header', name: 'X-Conversation-Id' },
        { source: 'meta' },
        { source: 'legacy_header' },
      ],
      on_unresolved: 'anonymous',
    },
  },
  'session default chain': {
    session: { identity: [{ source: 'header' }, { source: 'legacy_header' }], on_unresolved: 'deny' },
  },
  'policies settings': {
    policies: {
      default: 'deny',
      flag_destructive: 'require_approval',
      on_tool_drift: 'block',
      dry_run: true,
      hot_reload: false,
      tool_revalidation: { enabled: true, interval: '5m', max_advertised_ttl: '1m' },
    },
  },
  'policies, log modes': { policies: { default: 'allow', flag_destructive: 'log', on_tool_drift: 'log' } },
  'install rules': {
    policies: {
      install: {
        default: 'allow',
        rules: [
          {
            name: 'known-bad',
            match: { name: 'evil-*' },
            action: 'deny_install',
            feedback: { message: 'Blocked package.' },
          },
          { match: { source: 'npm', metadata: { sender_id: { regex: '^EXT-' } } }, action: 'deny_install' },
          { name: 'vetted', match: { name: '@acme/*', source: 'npm' }, action: 'allow' },
        ],
      },
    },
  },
  budgets: { budgets: BUDGET_SHAPES },
  'approval settings': {
    approval: {
      timeout: '300s',
      default_on_timeout: 'deny',
      channels: [
        {
          type: 'slack',
          name: 'ops-slack',
          bot_token: '${CHAT_BOT_TOKEN}',
          signing_secret: '${CHAT_SIGNING}',
          channel: '#ops',
        },
        { type: 'webhook', url: 'https://approvals.invalid/hook', secret: '${HOOK_SECRET}' },
        { type: 'dashboard', name: 'panel' },
      ],
    },
  },
  audit: { audit: { storage: 'sqlite', path: './audit.db', retention: '90d', include_responses: false } },
  'dashboard settings': {
    dashboard: {
      enabled: true,
      port: 3101,
      host: '127.0.0.1',
      api_secret: '${PANEL_SECRET}',
      sse_heartbeat_interval: '30s',
    },
  },
  'dashboard off, slack only': {
    approval: { channels: [{ type: 'slack', bot_token: 'xoxb-0', signing_secret: 's', channel: '#ops' }] },
    dashboard: { enabled: false },
  },
  'dashboard open mode': { approval: {}, dashboard: { allow_open_mode: true, host: 'localhost' } },
  sdk: { sdk: { enabled: true, port: 3201, host: '127.0.0.1', evaluation_ttl: '10m' } },
  'environment from a variable': { environment: '${DEPLOY_ENV}' },
};

function variablesOf(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, name] of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g))
    env[name ?? ''] = `value-of-${name}`;
  return env;
}

function rendered(name: string, doc: Doc, style: 'block' | 'flow' = 'block'): GeneratedPolicy {
  const text = stringify(doc, { collectionStyle: style, lineWidth: 0 });
  const policies = doc['policies'] as { rules?: unknown[] } | undefined;
  const budgets = doc['budgets'] as unknown[] | undefined;
  return {
    name,
    text,
    env: variablesOf(text),
    rules: policies?.rules?.length ?? 0,
    budgets: budgets?.length ?? 0,
  };
}

const overBase = (fragment: Doc): Doc => ({ ...BASE, ...fragment });

/** Everything the catalogue has, in one policy (the reference's larger samples combine most of it). */
export function combinedDocument(): Doc {
  return {
    ...BASE,
    ...SECTION_SHAPES['upstream, streamable-http with headers'],
    ...SECTION_SHAPES['listen'],
    ...SECTION_SHAPES['session identity'],
    policies: {
      ...(SECTION_SHAPES['policies settings']?.['policies'] as Doc),
      dry_run: false,
      ...(SECTION_SHAPES['install rules']?.['policies'] as Doc),
      rules: Object.values(RULE_SHAPES),
    },
    budgets: BUDGET_SHAPES,
    approval: {
      timeout: '300s',
      default_on_timeout: 'deny',
      channels: (BASE['approval'] as Doc)['channels'],
    },
    ...SECTION_SHAPES['audit'],
    ...SECTION_SHAPES['dashboard settings'],
    ...SECTION_SHAPES['sdk'],
  };
}

/** `x-` anchor holders, `<<` merge keys and aliases, as the reference's configuration guide shows them. */
const ANCHORED = `version: '1'
upstream: { url: 'http://127.0.0.1:9800/mcp' }
x-deny: &deny-rule
  action: deny
  feedback: { message: 'Not for agents.' }
x-approval: &routing
  channel: dashboard
  timeout: 5m
policies:
  rules:
    - <<: *deny-rule
      name: no-wipe
      match: { tool: 'wipe_*' }
    - <<: *deny-rule
      match: { tool: 'format_*' }
    - name: gated
      match: { tool: 'sign_*' }
      action: require_approval
      approval: *routing
dashboard: { api_secret: '\${PANEL_SECRET}' }
`;

/** Every generated policy: each rule, section and budget alone, rule lists, whole configs, two styles. */
export function referenceEquivalentPolicies(): readonly GeneratedPolicy[] {
  const out: GeneratedPolicy[] = [];
  for (const [name, rule] of Object.entries(RULE_SHAPES)) {
    out.push(rendered(`rule: ${name}`, overBase({ policies: { rules: [rule] } })));
  }
  for (const [name, section] of Object.entries(SECTION_SHAPES)) {
    out.push(rendered(`section: ${name}`, overBase(section)));
    out.push(rendered(`section: ${name}, flow style`, overBase(section), 'flow'));
  }
  BUDGET_SHAPES.forEach((budget, i) => out.push(rendered(`budget ${i}`, overBase({ budgets: [budget] }))));
  const lists: Record<string, readonly string[]> = {
    'approval rules': Object.keys(RULE_SHAPES).filter((name) => name.includes('approval')),
    'limit rules': Object.keys(RULE_SHAPES).filter((name) => /rate|spend/.test(name)),
    'deny rules': Object.keys(RULE_SHAPES).filter((name) => name.startsWith('deny')),
  };
  for (const [name, keys] of Object.entries(lists)) {
    out.push(
      rendered(`rule list: ${name}`, overBase({ policies: { rules: keys.map((key) => RULE_SHAPES[key]) } })),
    );
  }
  out.push(rendered('whole config, block style', combinedDocument()));
  out.push(rendered('whole config, flow style', combinedDocument(), 'flow'));
  out.push(
    rendered('minimal config', {
      version: '1',
      upstream: { url: 'http://127.0.0.1:9800/mcp' },
      dashboard: { enabled: false },
    }),
  );
  out.push({
    name: 'anchors and merge keys',
    text: ANCHORED,
    env: variablesOf(ANCHORED),
    rules: 3,
    budgets: 0,
  });
  return out;
}
