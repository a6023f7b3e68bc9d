import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OutputCapture } from './output-capture.js';

async function captured(chunks: readonly Buffer[], limit: number): Promise<OutputCapture> {
  const stream = new PassThrough();
  const capture = new OutputCapture(stream, limit);
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await capture.closed;
  return capture;
}

describe('OutputCapture', () => {
  it('keeps chunks up to the limit and counts the rest', async () => {
    const capture = await captured([Buffer.from('abc'), Buffer.from('defg'), Buffer.from('hij')], 5);
    expect([capture.text(), capture.keptBytes, capture.totalBytes, capture.truncated]).toEqual([
      'abcde',
      5,
      10,
      true,
    ]);
  });

  it('is not truncated at exactly the limit', async () => {
    const capture = await captured([Buffer.from('abcde')], 5);
    expect([capture.text(), capture.truncated]).toEqual(['abcde', false]);
  });

  it('only counts with a limit of 0', async () => {
    const capture = await captured([Buffer.from('hidden')], 0);
    expect([capture.text(), capture.totalBytes]).toEqual(['', 6]);
  });

  it('leaves out a character cut at the limit, but keeps a whole stream’s broken tail visible', async () => {
    const euro = Buffer.from('€'); // 3 bytes
    expect((await captured([Buffer.from('ab'), euro], 4)).text()).toBe('ab');
    expect((await captured([Buffer.from('ab'), euro.subarray(0, 2)], 4)).text()).toBe('ab\uFFFD');
  });

  it('keeps a leading byte-order mark as written', async () => {
    expect((await captured([Buffer.from('\uFEFFx')], 10)).text()).toBe('\uFEFFx');
  });

  it('records a stream error and still settles', async () => {
    const stream = new PassThrough();
    const capture = new OutputCapture(stream, 10);
    stream.destroy(new Error('pipe broke'));
    await capture.closed;
    expect(capture.error?.message).toBe('pipe broke');
  });

  it('settles at once for a stream already closed', async () => {
    const stream = Readable.from([]);
    stream.resume();
    await new Promise((resolve) => stream.once('close', resolve));
    await new OutputCapture(stream, 10).closed;
  });
});
