import { SecretRegistry } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { SessionRedaction } from '../redaction.js';
import { ArgumentDeltas } from './argument-deltas.js';

const SECRET = 'sk-live-0123456789abcdef';

function streamed(deltas: ArgumentDeltas, callId: string, fragments: readonly string[]): string[] {
  const out: string[] = [];
  for (const fragment of fragments) {
    const event = deltas.delta(callId, fragment);
    if (event) out.push(event.argumentsDelta);
  }
  const rest = deltas.stop(callId);
  if (rest) out.push(rest.argumentsDelta);
  return out;
}

describe('ArgumentDeltas', () => {
  it('passes fragments through as they come when no secret is registered', () => {
    const deltas = new ArgumentDeltas(new SessionRedaction(new SecretRegistry()));
    deltas.start('c1', 'Write');
    expect(deltas.delta('c1', '{"a":')).toEqual({
      type: 'ToolUseDelta',
      callId: 'c1',
      toolName: 'Write',
      argumentsDelta: '{"a":',
    });
    expect(streamed(deltas, 'c1', ['1}'])).toEqual(['1}']);
  });

  it('holds back the start of a secret until the next fragment tells, whatever the cut', () => {
    const registry = new SecretRegistry();
    registry.register('KEY', SECRET);
    const json = `{"token":"${SECRET}","again":"${SECRET}"}`;
    for (let size = 1; size <= json.length; size += 3) {
      const deltas = new ArgumentDeltas(new SessionRedaction(registry));
      deltas.start('c', 'Call');
      const fragments = json.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) as string[];
      const out = streamed(deltas, 'c', fragments);
      for (const piece of out) expect(piece).not.toMatch(/sk-l|0123|cdef/);
      expect(out.join(''), `fragments of ${size}`).toBe(
        '{"token":"<redacted:KEY>","again":"<redacted:KEY>"}',
      );
    }
  });

  it("emits a held-back start at the call's end when it was not a secret after all", () => {
    const registry = new SecretRegistry();
    registry.register('KEY', SECRET);
    const deltas = new ArgumentDeltas(new SessionRedaction(registry));
    deltas.start('c', 'Call');
    expect(deltas.delta('c', '{"x":"sk-live')).toMatchObject({ argumentsDelta: '{"x":"' });
    expect(deltas.delta('c', '')).toBeUndefined();
    expect(deltas.stop('c')).toMatchObject({ argumentsDelta: 'sk-live' });
  });

  it('ignores fragments of a call that never started, and redacts a made-up tool name', () => {
    const registry = new SecretRegistry();
    registry.register('KEY', SECRET);
    const deltas = new ArgumentDeltas(new SessionRedaction(registry));
    expect(deltas.delta('nope', '{}')).toBeUndefined();
    expect(deltas.stop('nope')).toBeUndefined();
    deltas.start('c', `tool-${SECRET}`);
    expect(deltas.delta('c', '{}')).toMatchObject({ toolName: 'tool-<redacted:KEY>' });
  });
});
