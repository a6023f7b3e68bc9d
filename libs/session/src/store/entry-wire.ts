/** The JSON form of a stored entry: what file and database stores keep, one entry per line or row. */
import { type Wire } from '../wire/wire-type.js';
import { messageToWire, readMessage } from '../wire/message-wire.js';
import { questionToWire, readQuestion } from '../wire/values-wire.js';
import { unknownVariant } from '../wire/wire-error.js';
import { ifPresent, readNonBlank, variantNames, WireObject } from '../wire/wire-object.js';
import { type StoredEntry } from './session-store.js';

export type StoredEntryWire = Wire<StoredEntry>;

export function entryToWire(entry: StoredEntry): StoredEntryWire {
  switch (entry.kind) {
    case 'message':
      return { kind: 'message', message: messageToWire(entry.message) };
    case 'history':
      return { kind: 'history', messages: entry.messages.map(messageToWire) };
    case 'question':
      return {
        kind: 'question',
        request: questionToWire(entry.request),
        ...ifPresent('toolCallId', entry.toolCallId),
      };
    case 'questionClosed':
      return { kind: 'questionClosed', questionId: entry.questionId };
    default: {
      const unknown: never = entry;
      throw unknownVariant('StoredEntry', unknown);
    }
  }
}

const KINDS = variantNames<StoredEntry['kind']>({
  message: true,
  history: true,
  question: true,
  questionClosed: true,
});

export function readEntry(value: unknown, path = 'entry'): StoredEntry {
  const wire = WireObject.at(value, path);
  const kind = wire.oneOf('kind', KINDS);
  switch (kind) {
    case 'message':
      return Object.freeze({ kind, message: wire.read('message', readMessage) });
    case 'history':
      return Object.freeze({ kind, messages: wire.array('messages', readMessage) });
    case 'question':
      return Object.freeze({
        kind,
        request: wire.read('request', readQuestion),
        ...ifPresent('toolCallId', wire.optional('toolCallId', readNonBlank)),
      });
    case 'questionClosed':
      return Object.freeze({ kind, questionId: wire.nonBlank('questionId') });
    default: {
      const unknown: never = kind;
      throw unknownVariant('StoredEntry', unknown);
    }
  }
}
