import { describe, expect, it } from 'vitest';
import { loadPolicy } from './load-policy.js';
import { MAX_REGEX_INPUT_LENGTH } from '../config/governance-limits.js';
import { decide } from './decide.js';
import { matchInputConditions } from './conditions.js';
import { harness } from '../testing/service-harness.js';

function policy(rules: string, extra = ''): ReturnType<typeof loadPolicy>['policy'] {
  return loadPolicy(`version: '1'\n${extra}\npolicies:\n${rules}\n`, { env: {} }).policy;
}

const tooLong = 'x'.repeat(MAX_REGEX_INPUT_LENGTH + 1);
const longest = 'x'.repeat(MAX_REGEX_INPUT_LENGTH);

describe('a regex condition on a value over the length bound fails closed', () => {
  it('cannot turn a matching deny rule into a non-match', () => {
    const p = policy(`
  default: allow
  rules:
    - { name: no-x, match: { tool: "send_*", input: { to: { regex: "x" } } }, action: deny }
`);
    const decision = decide({ policy: p, toolName: 'send_mail', args: { to: tooLong } });
    expect(decision.action).toBe('deny');
    expect(decision.reason).toMatch(/"no-x" cannot be evaluated .*input\.to: a value of 65537 characters/);
    expect(decide({ policy: p, toolName: 'send_mail', args: { to: longest } }).matchedRule?.name).toBe(
      'no-x',
    );
  });

  it('cannot let an allow rule through either', () => {
    const p = policy(`
  default: deny
  rules:
    - { name: internal, match: { input: { to: { regex: "@corp\\\\.example$" } } }, action: allow }
`);
    const decision = decide({ policy: p, toolName: 'send', args: { to: `${tooLong}@corp.example` } });
    expect(decision).toMatchObject({ action: 'deny', matchedRule: undefined });
  });

  it('applies to metadata regexes too', () => {
    const p = policy(`
  default: allow
  rules:
    - { name: channel, match: { metadata: { channel: { regex: "^ops-" } } }, action: require_approval }
`);
    const decision = decide({ policy: p, toolName: 't', args: {}, metadata: { channel: tooLong } });
    expect(decision.action).toBe('deny');
    expect(decision.reason).toMatch(/metadata\.channel/);
  });

  it('leaves the verdict alone when the rule fails anyway or an earlier rule decides', () => {
    const p = policy(`
  default: allow
  rules:
    - { name: first, match: { tool: early }, action: allow }
    - { name: other-tool, match: { tool: nope, input: { a: { regex: "x" } } }, action: deny }
    - { name: other-field, match: { input: { a: { regex: "x" }, b: { eq: 1 } } }, action: deny }
`);
    expect(decide({ policy: p, toolName: 'early', args: { a: tooLong } }).matchedRule?.name).toBe('first');
    const passed = decide({ policy: p, toolName: 't', args: { a: tooLong, b: 2 } });
    expect(passed).toMatchObject({ action: 'allow', matchedRule: undefined });
  });

  it('counts the call toward a budget contributor rather than letting it pass uncounted', () => {
    const p = policy(`
  rules:
    - { match: { input: { a: { regex: "x" } } }, action: deny }
`);
    const [rule] = p.rules;
    expect(matchInputConditions(rule?.input ?? [], { a: tooLong })).toBe(true);
  });
});

describe('an install scan whose rule cannot be evaluated', () => {
  it('is denied, whatever the rule would have allowed', async () => {
    const h = await harness(
      "version: '1'\npolicies:\n  install:\n    default: deny\n    rules:\n      - { name: trusted, match: { name: '*', metadata: { channel_id: { regex: '^ok' } } }, action: allow }\n",
      { limits: { maxMetadataBytes: 2 * MAX_REGEX_INPUT_LENGTH } },
    );
    const scan = (channel: string) =>
      h.service.installScan({ package: { name: 'left-pad' }, metadata: { channel_id: channel } });
    expect(await scan(`ok${longest.slice(2)}`)).toMatchObject({ body: { decision: 'allow' } });
    expect(await scan(`ok${tooLong}`)).toMatchObject({
      body: { decision: 'deny', reason: expect.stringMatching(/"trusted" cannot be evaluated/) },
    });
  });
});
