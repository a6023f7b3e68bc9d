/**
 * `decide()` alone with a 100-rule policy (issue 5 target: ≤ 50 µs per decision). The rules mix tool
 * globs, annotation and input conditions and metadata matches; the measured calls hit the last rule, a
 * middle rule and no rule (default), so first-match-wins walks the whole list in the worst case.
 */
import { Bench } from 'tinybench';
import { decide, loadPolicy } from '../../libs/governance/src/index.ts';
import type { BenchResult } from '../run.ts';

const TARGET_US = 50;

function policyWith100Rules(): string {
  const rules: string[] = [];
  for (let i = 0; i < 99; i += 1) {
    const match =
      i % 3 === 0
        ? `{ tool: "svc${i}_*", input: { amount: { gt: ${i} } } }`
        : i % 3 === 1
          ? `{ tool: "tool${i}", metadata: { channel_id: "c${i}" } }`
          : `{ tool: "{read,write}_${i}", annotations: { readOnlyHint: false } }`;
    rules.push(`    - { name: r${i}, match: ${match}, action: ${i % 2 === 0 ? 'deny' : 'allow'} }`);
  }
  rules.push(
    `    - { name: last, match: { tool: "pay_*", input: { "order.currency": { regex: "^(USD|EUR)$" } } }, action: require_approval }`,
  );
  return `version: '1'\npolicies:\n  default: allow\n  rules:\n${rules.join('\n')}\n`;
}

export default async function run(): Promise<BenchResult> {
  const { policy } = loadPolicy(policyWith100Rules(), { env: {} });
  const calls = {
    'last rule': { policy, toolName: 'pay_invoice', args: { order: { currency: 'EUR', total: 12 } } },
    'middle rule': { policy, toolName: 'tool49', args: {}, metadata: { channel_id: 'c49' } },
    'no rule (default)': { policy, toolName: 'unmatched_tool', args: { a: 1 }, sessionId: 's1' },
  };
  if (decide(calls['last rule']).matchedRule?.name !== 'last')
    throw new Error('benchmark policy does not match as intended');

  const bench = new Bench({ time: 1_000, warmup: true });
  for (const [name, input] of Object.entries(calls)) bench.add(name, () => decide(input));
  await bench.run();

  const metrics: Record<string, number> = {};
  let worstUs = 0;
  for (const name of Object.keys(calls)) {
    const result = bench.getTask(name)?.result;
    const us = result && 'latency' in result ? result.latency.mean * 1000 : Number.NaN;
    metrics[`µs/decision, ${name}`] = Number(us.toFixed(2));
    worstUs = Math.max(worstUs, us);
  }
  return {
    metrics,
    ratios: { 'worst µs/decision / 50 µs target': Number((worstUs / TARGET_US).toFixed(3)) },
  };
}
