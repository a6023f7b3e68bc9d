import { describe, expect, it } from 'vitest';
import { OutputBuffer } from './output-buffer.js';
import { type OutputStream } from './protocol.js';

describe('OutputBuffer', () => {
  const collect = (cap: number, chunk: number) => {
    const sent: [OutputStream, string][] = [];
    return { sent, buffer: new OutputBuffer((stream, text) => sent.push([stream, text]), cap, chunk) };
  };

  it('sends in chunks no longer than the chunk size, per stream', () => {
    const { sent, buffer } = collect(100, 4);
    buffer.write('stdout', 'abcdefghij');
    buffer.write('stderr', 'xy');
    expect(sent).toEqual([
      ['stdout', 'abcd'],
      ['stdout', 'efgh'],
    ]);
    buffer.flush();
    expect(sent.slice(2)).toEqual([
      ['stdout', 'ij'],
      ['stderr', 'xy'],
    ]);
    buffer.flush();
    expect(sent).toHaveLength(4);
  });

  it('keeps exactly the cap and counts the rest', () => {
    const { sent, buffer } = collect(10, 100);
    buffer.write('stdout', '1234567890');
    expect(buffer.discarded).toEqual({ stdout: 0, stderr: 0 });
    buffer.write('stdout', 'x');
    buffer.write('stdout', 'yz');
    buffer.flush();
    expect(sent).toEqual([['stdout', '1234567890']]);
    expect(buffer.discarded).toEqual({ stdout: 3, stderr: 0 });
  });
});
