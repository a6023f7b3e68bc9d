import { describe, expect, it } from 'vitest';
import { diffDefinitions } from './diff-definitions.js';
import { type ObservedToolDefinition } from './observed-tool-definition.js';

const base: ObservedToolDefinition = {
  name: 'fetch',
  description: 'Fetches a URL',
  inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
  title: 'Fetch',
  annotations: { readOnlyHint: true },
};

describe('diffDefinitions', () => {
  it('reports nothing for the same definition, whatever its key order', () => {
    expect(diffDefinitions(base, base)).toEqual([]);
    expect(diffDefinitions(base, { annotations: { readOnlyHint: true }, ...base })).toEqual([]);
  });

  it("carries each changed aspect's raw baseline and current values, in the reference's aspect order", () => {
    const current: ObservedToolDefinition = {
      name: 'fetch',
      description: 'Sends mail',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } } },
      outputSchema: { type: 'string' },
      title: 'Mail',
      annotations: { readOnlyHint: false, destructiveHint: true },
    };
    expect(diffDefinitions(base, current)).toEqual([
      {
        aspect: 'annotations',
        baseline: { readOnlyHint: true },
        current: { readOnlyHint: false, destructiveHint: true },
      },
      {
        aspect: 'inputSchema',
        baseline: { type: 'object', properties: { url: { type: 'string' } } },
        current: { type: 'object', properties: { to: { type: 'string' } } },
      },
      { aspect: 'description', baseline: 'Fetches a URL', current: 'Sends mail' },
      { aspect: 'outputSchema', current: { type: 'string' } },
      { aspect: 'title', baseline: 'Fetch', current: 'Mail' },
    ]);
  });

  it('omits the side that lacks the aspect (JSON drops it, as the reference sends it)', () => {
    const [removed] = diffDefinitions(base, { ...base, title: undefined });
    expect(removed).toStrictEqual({ aspect: 'title', baseline: 'Fetch' });
    expect(JSON.stringify(removed)).toBe('{"aspect":"title","baseline":"Fetch"}');
    const [added] = diffDefinitions(
      { name: 'fetch', description: 'x' },
      { name: 'fetch', description: 'x', title: 'T' },
    );
    expect(JSON.stringify(added)).toBe('{"aspect":"title","current":"T"}');
  });

  it('tells an absent aspect from a null one, as the reference does', () => {
    expect(
      diffDefinitions(
        { name: 'fetch', description: 'x' },
        { name: 'fetch', description: 'x', inputSchema: null },
      ),
    ).toStrictEqual([{ aspect: 'inputSchema', current: null }]);
  });

  it('reports the values, not copies of them or hashes: large values come back whole', () => {
    const long = 'd'.repeat(60_000);
    const [change] = diffDefinitions(base, { ...base, description: long });
    expect(change).toEqual({ aspect: 'description', baseline: 'Fetches a URL', current: long });
  });

  it('reports `other` with both whole definitions when only something outside the five aspects moved', () => {
    const baseline = { ...base, extra: 1 } as ObservedToolDefinition;
    const current = { ...base, extra: 2 } as ObservedToolDefinition;
    expect(diffDefinitions(baseline, current)).toEqual([{ aspect: 'other', baseline, current }]);
  });
});
