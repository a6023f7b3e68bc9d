import { Duplex, PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HostChannel } from './host-channel.js';

/** A socket stand-in: what the host writes goes to `written`, `feed` delivers child bytes. */
function socketPair() {
  const incoming = new PassThrough();
  let written = '';
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString();
      done();
    },
  });
  incoming.on('data', (chunk: Buffer) => socket.push(chunk));
  return { socket, feed: (data: string | Buffer) => incoming.write(data), written: () => written };
}

function open(cap = 20) {
  const pair = socketPair();
  const frames: unknown[] = [];
  const faults: string[] = [];
  const closes: string[] = [];
  const channel = new HostChannel(pair.socket, cap, {
    onFrame: (f) => frames.push(f),
    onFault: (r) => faults.push(r),
    onClose: () => closes.push('closed'),
  });
  return { ...pair, channel, frames, faults, closes };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('HostChannel', () => {
  it('splits frames on newlines across chunks, whole characters included', async () => {
    const { feed, frames, faults } = open(100);
    const bytes = Buffer.from('{"a":"é"}\n{"b":', 'utf8');
    feed(bytes.subarray(0, 7)); // inside the two-byte é
    feed(bytes.subarray(7));
    feed('2}\n[1]\n');
    await settle();
    expect(frames).toEqual([{ a: 'é' }, { b: 2 }, [1]]);
    expect(faults).toEqual([]);
  });

  it('accepts a frame of exactly the cap and faults one character over, even before its newline', async () => {
    const exact = open(10);
    exact.feed(`"${'x'.repeat(8)}"\n`); // 10 chars
    await settle();
    expect(exact.frames).toEqual(['x'.repeat(8)]);
    const over = open(10);
    over.feed(`"${'x'.repeat(9)}"\n{"after":1}\n`);
    await settle();
    expect(over.faults).toEqual(['a frame exceeded 10 chars']);
    expect(over.frames).toEqual([]);
    const unterminated = open(10);
    unterminated.feed('x'.repeat(6));
    unterminated.feed('x'.repeat(5));
    await settle();
    expect(unterminated.faults).toEqual(['a frame exceeded 10 chars']);
  });

  it('faults once on a frame that is not JSON, and stops reading', async () => {
    const { feed, frames, faults } = open();
    feed('not json\n{"x":1}\nalso not\n');
    await settle();
    expect(faults).toEqual(['a frame was not JSON']);
    expect(frames).toEqual([]);
  });

  it('reports the socket closing, also after an error, and sends nothing once it is gone', async () => {
    const { socket, channel, faults, closes, written } = open();
    channel.send({ first: true });
    socket.destroy(new Error('EPIPE'));
    await settle();
    channel.sendRaw('{"second":true}');
    expect(closes).toEqual(['closed']);
    expect(faults).toEqual([]);
    expect(written()).toBe('{"first":true}\n');
  });

  it('sends nothing after a fault', async () => {
    const { feed, channel, written } = open();
    feed('nope\n');
    await settle();
    channel.send({ late: true });
    expect(written()).toBe('');
  });
});
