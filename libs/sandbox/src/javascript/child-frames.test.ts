import { describe, expect, it } from 'vitest';
import { readChildFrame } from './child-frames.js';

const rpc = (frame: object) => ({ jsonrpc: '2.0', ...frame });

describe('readChildFrame', () => {
  it('reads every shape the child sends', () => {
    expect(readChildFrame(rpc({ id: 'boot', result: { ready: true, engine: 'quickjs-ng 0.18.0' } }))).toEqual(
      { type: 'Booted', engine: 'quickjs-ng 0.18.0' },
    );
    expect(readChildFrame(rpc({ id: 'boot', result: { ready: true } }))).toEqual({
      type: 'Booted',
      engine: 'unknown',
    });
    expect(
      readChildFrame(rpc({ method: 'output', params: { exec: '1', stream: 'stderr', text: 'x' } })),
    ).toEqual({ type: 'Output', exec: '1', stream: 'stderr', text: 'x' });
    expect(
      readChildFrame(rpc({ id: 'sub-1', method: 'call', params: { exec: '1', name: 'f', args: { a: 1 } } })),
    ).toEqual({
      type: 'Call',
      id: 'sub-1',
      exec: '1',
      name: 'f',
      args: { a: 1 },
    });
    expect(
      readChildFrame(
        rpc({
          id: '2',
          result: { exitCode: 0, timedOut: false, value: '3', discarded: { stdout: 0, stderr: 4 } },
        }),
      ),
    ).toEqual({
      type: 'Executed',
      id: '2',
      outcome: { exitCode: 0, timedOut: false, value: '3', discarded: { stdout: 0, stderr: 4 } },
    });
    expect(
      readChildFrame(
        rpc({ id: '2', result: { exitCode: 1, timedOut: true, discarded: { stdout: 0, stderr: 0 } } }),
      ),
    ).toMatchObject({
      type: 'Executed',
      outcome: { exitCode: 1, timedOut: true },
    });
  });

  it('calls anything else a protocol violation', () => {
    const invalid = [
      null,
      [],
      { id: '1', result: {} },
      rpc({ method: 'execute', id: '1', params: {} }),
      rpc({ method: 'output' }),
      rpc({ method: 'output', params: { exec: '1', stream: 'fd3', text: 'x' } }),
      rpc({ id: 'sub-1', method: 'call', params: { exec: 1, name: 'f' } }),
      rpc({ id: 'sub-1', method: 'call' }),
      rpc({ id: '2' }),
      rpc({ id: '2', result: { exitCode: 2, timedOut: false, discarded: { stdout: 0, stderr: 0 } } }),
      rpc({ id: '2', result: { exitCode: 0, timedOut: false, discarded: { stdout: -1, stderr: 0 } } }),
      rpc({ id: '2', result: { exitCode: 0, timedOut: false, discarded: [] } }),
      rpc({
        id: '2',
        result: { exitCode: 0, timedOut: false, value: 3, discarded: { stdout: 0, stderr: 0 } },
      }),
      rpc({ id: 7, result: {} }),
    ];
    for (const frame of invalid) {
      expect(readChildFrame(frame)).toMatchObject({
        type: 'Invalid',
        reason: expect.stringMatching(/^protocol violation: /) as unknown,
      });
    }
  });
});
