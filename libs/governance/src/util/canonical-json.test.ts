import { describe, expect, it } from 'vitest';
import { canonicalJson, identityJsonBytes, jsonByteLength, keyAmountJsonBytes } from './canonical-json.js';

describe('canonical JSON', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }], e: null })).toBe(
      '{"a":[{"d":2}],"b":1,"e":null}',
    );
  });

  it('counts an identity exactly as jsonByteLength of the object would', () => {
    const texts = [
      'read_file',
      '',
      'say "hi"',
      'back\\slash',
      'tab\there',
      'ünïcödé',
      '😀',
      '\u0000',
      'a/b~c',
    ];
    for (const toolName of texts) {
      for (const agentId of [null, 'agent-7', 'ag"ent']) {
        for (const session of [null, 's-1', 'sé']) {
          const origin = toolName.length % 2 === 0 ? 'sdk' : 'orïgin';
          expect(identityJsonBytes(toolName, agentId, session, origin), JSON.stringify(toolName)).toBe(
            jsonByteLength({ toolName, agentId, session, origin }),
          );
        }
      }
    }
  });

  it('counts key and amount pairs exactly as jsonByteLength of the pairs would', () => {
    const keys = ['tool:send:rule:2', 'budget:pay:session:sé', 'sender:"U7":rule:0', 'k\\\t😀', ''];
    const amounts = [0n, 1n, 10_000n, 123_456_789_012_345n];
    for (let n = 0; n <= 3; n += 1) {
      const charges = Array.from({ length: n }, (_, i) => ({
        key: keys[(i * 3 + n) % keys.length] ?? '',
        amount: amounts[(i + n) % amounts.length] ?? 0n,
      }));
      expect(keyAmountJsonBytes(charges)).toBe(jsonByteLength(charges.map((c) => [c.key, String(c.amount)])));
    }
  });
});
