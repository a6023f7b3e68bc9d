/**
 * A session's link to its store: what it loaded at open, and what it has not yet written. Flushes run
 * one at a time; each writes the messages the history gained since the last one (or the whole history
 * once it was replaced) and the question entries noted meanwhile. A failed flush keeps its entries for
 * the next one. A conflict is final: once another writer took the session, every flush refuses.
 */
import { type Message } from '@helios/core';
import { SessionConflictError, type SessionStore, type StoredEntry } from './session-store.js';
import { type QuestionRequest } from '../questions/question.js';

/** A question that was open when the store was last written, restored with the conversation. */
export interface RestoredQuestion {
  readonly request: QuestionRequest;
  readonly toolCallId?: string;
}

export interface RestoredConversation {
  readonly messages: readonly Message[];
  readonly questions: readonly RestoredQuestion[];
}

/** Replays a stored log: messages in order, a `history` entry starting over, questions open or closed. */
export function replay(entries: readonly StoredEntry[]): RestoredConversation {
  let messages: Message[] = [];
  const questions = new Map<string, RestoredQuestion>();
  for (const entry of entries) {
    switch (entry.kind) {
      case 'message':
        messages.push(entry.message);
        break;
      case 'history':
        messages = [...entry.messages];
        break;
      case 'question':
        questions.set(entry.request.questionId, {
          request: entry.request,
          ...(entry.toolCallId === undefined ? {} : { toolCallId: entry.toolCallId }),
        });
        break;
      case 'questionClosed':
        questions.delete(entry.questionId);
        break;
    }
  }
  return { messages, questions: [...questions.values()] };
}

export class SessionPersistence {
  readonly #store: SessionStore;
  readonly #sessionId: string;
  #version: number;
  /** History positions before this one are stored (or were replaced since). */
  #storedUpTo = 0;
  #replaced = false;
  #notes: StoredEntry[] = [];
  #chain: Promise<void> = Promise.resolve();
  #conflict: SessionConflictError | undefined;

  constructor(store: SessionStore, sessionId: string, version: number) {
    this.#store = store;
    this.#sessionId = sessionId;
    this.#version = version;
  }

  /** Another writer took the session: this one must stop. */
  get conflicted(): boolean {
    return this.#conflict !== undefined;
  }

  /** The history up to `length` is what the store holds (set after restoring it). */
  markStored(length: number): void {
    this.#storedUpTo = length;
  }

  /** The history was rewritten in place: the next flush stores it whole. */
  markReplaced(): void {
    this.#replaced = true;
  }

  /** A question entry to write with the next flush, after the messages before it. */
  note(entry: StoredEntry): void {
    this.#notes.push(entry);
  }

  /** Writes what changed; resolves once it is stored, rejects with the store's error. */
  flush(history: readonly Message[]): Promise<void> {
    const next = this.#chain.then(() => this.#write(history));
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #write(history: readonly Message[]): Promise<void> {
    if (this.#conflict) throw this.#conflict;
    const replaced = this.#replaced;
    const end = history.length;
    const messages = replaced ? history : history.slice(this.#storedUpTo);
    const conversation = messages.filter((message) => message.role !== 'system');
    const notes = this.#notes;
    const entries: StoredEntry[] = replaced
      ? [{ kind: 'history', messages: conversation }]
      : conversation.map((message) => ({ kind: 'message', message }));
    entries.push(...notes);
    if (entries.length === 0) return;
    this.#replaced = false;
    this.#notes = [];
    try {
      this.#version = await this.#store.append(this.#sessionId, this.#version, entries);
      this.#storedUpTo = end;
    } catch (error) {
      if (error instanceof SessionConflictError) this.#conflict = error;
      this.#replaced ||= replaced;
      this.#notes.unshift(...notes);
      throw error;
    }
  }
}
