/** The feedback texts, word for word as the reference's sideband service writes them. */
import { describe, expect, it } from 'vitest';
import { decide } from '../engine/decide.js';
import { loadPolicy } from '../engine/load-policy.js';
import {
  budgetApprovalFeedback,
  budgetDeniedFeedback,
  ruleFeedback,
  sessionUnresolvedFeedback,
} from './feedback.js';

const policy = (yaml: string) => loadPolicy(`version: '1'\n${yaml}`, { env: {} }).policy;

describe('ruleFeedback (the reference buildFeedback)', () => {
  const p = policy(`
policies:
  rules:
    - { name: told, match: { tool: told }, action: deny, feedback: { message: No, suggestion: Ask first } }
    - { name: bare, match: { tool: bare }, action: deny, feedback: { message: Only a message } }
    - { name: empty, match: { tool: empty }, action: deny, feedback: { message: M, suggestion: '' } }
    - { name: silent, match: { tool: silent }, action: rate_limit, limits: { max_calls: 1, window: 1m } }
`);
  const feedback = (toolName: string) => ruleFeedback(decide({ policy: p, toolName, args: {} }));

  it('the configured message and suggestion', () => {
    expect(feedback('told')).toStrictEqual({ message: 'No', suggestion: 'Ask first' });
    expect(feedback('bare')).toStrictEqual({ message: 'Only a message' });
  });

  it('an empty suggestion is none', () => {
    expect(feedback('empty')).toStrictEqual({ message: 'M' });
  });

  it('without configured feedback, the decision reason alone', () => {
    expect(feedback('silent')).toStrictEqual({ message: 'Matched "silent" → rate_limit' });
  });
});

describe('budget feedback', () => {
  it('breached budgets', () => {
    expect(budgetDeniedFeedback([], ['daily-cap', 'pot'])).toStrictEqual({
      message: 'Budget "daily-cap", "pot" would be exceeded by this call',
      suggestion: 'Wait for the window to reset or reduce the amount.',
    });
  });

  it('unreadable amounts take precedence over breaches', () => {
    expect(budgetDeniedFeedback(['a', 'b'], ['pot'])).toStrictEqual({
      message: 'Budget "a", "b" could not read a valid spend amount from this call',
      suggestion: 'Retry with a non-negative finite amount in the expected field.',
    });
  });

  it('a break-glass approval', () => {
    expect(budgetApprovalFeedback(['glass'])).toStrictEqual({
      message: 'Budget "glass" would be exceeded by this call; break-glass approval required',
      suggestion: 'Await the approval decision, reduce the amount, or wait for the window to reset.',
    });
  });
});

describe('sessionUnresolvedFeedback', () => {
  it('names the configured identity chain', () => {
    expect(sessionUnresolvedFeedback(policy('session: { identity: [ { source: meta } ] }\n'))).toStrictEqual({
      message:
        'No session identity resolved (tried: meta) — a session-keyed limit or budget requires one. ' +
        'See session.identity in helio.yaml.',
      suggestion:
        'Send a session_id the identity policy accepts, or set session.on_unresolved: anonymous to restore shared pooling.',
    });
  });
});
