import { describe, expect, it } from 'vitest';
import { Message } from '@helios/core';
import { entryToWire, messageToWire, readEntry, readMessage, WireFormatError } from '../../src/index.js';
import { everyEntryKind } from '../../src/testing/index.js';

describe('stored entry wire', () => {
  it('round-trips every entry kind and every message role', () => {
    for (const entry of everyEntryKind())
      expect(readEntry(JSON.parse(JSON.stringify(entryToWire(entry))))).toEqual(entry);
    const system = Message.system('rules');
    expect(readMessage(messageToWire(system), 'm')).toEqual(system);
  });

  it('refuses what is not an entry, naming where', () => {
    expect(() => readEntry({ kind: 'message', message: { role: 'robot', content: '' } })).toThrow(
      WireFormatError,
    );
    expect(() => readEntry({ kind: 'nope' })).toThrow(/kind/);
    expect(() => readEntry({ kind: 'question', request: {}, toolCallId: ' ' })).toThrow(WireFormatError);
    expect(() => readMessage({ role: 'tool', toolCallId: '', toolName: 'x', content: '' }, 'm')).toThrow(
      /toolCallId/,
    );
    expect(() => entryToWire({ kind: 'other' } as never)).toThrow(WireFormatError);
    expect(() => messageToWire({ role: 'robot' } as never)).toThrow(WireFormatError);
  });
});
