/**
 * Shared examples of the session wire form: golden pairs of an event and its wire form written out by
 * hand (key order pinned too), for the wire tests beside src/wire/event-wire.ts.
 */
import { CostEstimate, fileReference, inlineFile, Message, toolCall, ToolResult, Usage } from '@helios/core';
import { type QueryEvent } from '../src/query-event.js';
import { type ErrorMaxBudgetUsd } from '../src/result-message.js';
import { SerializedError } from '../src/serialized-error.js';
import { StopReason } from '../src/stop-reason.js';

export const BASE = { sessionId: 's-1', runId: 'r-1', turnIndex: 2, timestamp: 1_700_000_000_000 } as const;
export const WIRE_BASE = { sessionId: 's-1', runId: 'r-1', turnIndex: 2, timestamp: 1700000000000 };
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const overBudget: ErrorMaxBudgetUsd = {
  type: 'ErrorMaxBudgetUsd',
  sessionId: 's-1',
  runId: 'r-1',
  usage: Usage.of(1200, 300, { cacheReadTokens: 50 }),
  cost: CostEstimate.ofMicroUsd(9_223_372_036_854_775_807n),
  durationMs: 4210,
  microUsdSpent: 9_223_372_036_854_775_807n,
};
export const runEnded: QueryEvent = { type: 'RunEnded', ...BASE, result: overBudget };

/** Golden pairs: an event and its wire form, written out by hand. Key order is pinned too. */
export const GOLDEN: readonly (readonly [string, QueryEvent, unknown])[] = [
  [
    'RunEnded carrying ErrorMaxBudgetUsd (micro-USD as decimal strings)',
    runEnded,
    {
      type: 'RunEnded',
      ...WIRE_BASE,
      result: {
        type: 'ErrorMaxBudgetUsd',
        sessionId: 's-1',
        runId: 'r-1',
        usage: {
          inputTokens: 1200,
          outputTokens: 300,
          cacheWriteTokens: 0,
          cacheReadTokens: 50,
          totalTokens: 1550,
        },
        cost: '9223372036854775807',
        durationMs: 4210,
        microUsdSpent: '9223372036854775807',
      },
    },
  ],
  [
    'RunEnded carrying Success with a citation',
    {
      type: 'RunEnded',
      ...BASE,
      result: {
        type: 'Success',
        sessionId: 's-1',
        runId: 'r-1',
        usage: Usage.of(10, 5),
        cost: CostEstimate.ofMicroUsd(1250n),
        durationMs: 80,
        result: '42',
        citations: [{ url: 'https://example.com/a', startIndex: 0, endIndex: 2, metadata: {} }],
      },
    },
    {
      type: 'RunEnded',
      ...WIRE_BASE,
      result: {
        type: 'Success',
        sessionId: 's-1',
        runId: 'r-1',
        usage: { inputTokens: 10, outputTokens: 5, cacheWriteTokens: 0, cacheReadTokens: 0, totalTokens: 15 },
        cost: '1250',
        durationMs: 80,
        result: '42',
        citations: [{ url: 'https://example.com/a', startIndex: 0, endIndex: 2, metadata: {} }],
      },
    },
  ],
  [
    'ToolResult with an attachment (bytes as base64 beside their mimeType)',
    {
      type: 'ToolResult',
      ...BASE,
      call: toolCall('call-1', 'screenshot', { page: 'home', scale: 2 }),
      result: ToolResult.success('captured', {
        data: { width: 8 },
        attachments: [inlineFile(PNG, 'image/png')],
      }),
      redactions: { API_KEY: 1 },
    },
    {
      type: 'ToolResult',
      ...WIRE_BASE,
      call: { id: 'call-1', name: 'screenshot', arguments: { page: 'home', scale: 2 } },
      result: {
        type: 'Success',
        output: 'captured',
        data: { width: 8 },
        attachments: [{ type: 'InlineFile', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
      },
      redactions: { API_KEY: 1 },
    },
  ],
  [
    'UserMessageReceived with an inline file and a file reference',
    {
      type: 'UserMessageReceived',
      ...BASE,
      message: Message.user('what is in this?', {
        inlineFiles: [inlineFile(new Uint8Array([0, 255]), 'application/octet-stream', 'notes.bin')],
        fileReferences: [fileReference('files/abc', 'application/pdf')],
      }),
    },
    {
      type: 'UserMessageReceived',
      ...WIRE_BASE,
      message: {
        role: 'user',
        content: 'what is in this?',
        inlineFiles: [
          { type: 'InlineFile', data: 'AP8=', mimeType: 'application/octet-stream', name: 'notes.bin' },
        ],
        fileReferences: [{ type: 'FileReference', uri: 'files/abc', mimeType: 'application/pdf' }],
      },
    },
  ],
  [
    'TurnEnded (stop reason, usage, cost)',
    {
      type: 'TurnEnded',
      ...BASE,
      reason: StopReason.TOOL_USE,
      usage: Usage.of(100, 20, { cacheWriteTokens: 5 }),
      cost: CostEstimate.ZERO,
    },
    {
      type: 'TurnEnded',
      ...WIRE_BASE,
      reason: 'TOOL_USE',
      usage: {
        inputTokens: 100,
        outputTokens: 20,
        cacheWriteTokens: 5,
        cacheReadTokens: 0,
        totalTokens: 125,
      },
      cost: '0',
    },
  ],
  [
    'TurnRetried with a cause chain (SerializedError)',
    {
      type: 'TurnRetried',
      ...BASE,
      attemptNumber: 1,
      backoffMs: 250,
      providerName: 'anthropic',
      error: {
        kind: 'TransientStreamError',
        message: 'overloaded',
        stackTrace: ['at call (model.ts:1:1)'],
        cause: SerializedError.ofKind('ECONNRESET', 'socket hang up'),
      },
    },
    {
      type: 'TurnRetried',
      ...WIRE_BASE,
      attemptNumber: 1,
      backoffMs: 250,
      providerName: 'anthropic',
      error: {
        kind: 'TransientStreamError',
        message: 'overloaded',
        stackTrace: ['at call (model.ts:1:1)'],
        cause: { kind: 'ECONNRESET', message: 'socket hang up', stackTrace: [] },
      },
    },
  ],
  [
    'QuestionAsked',
    {
      type: 'QuestionAsked',
      ...BASE,
      request: {
        questionId: 'perm-1',
        header: 'Permission',
        question: 'Run rm?',
        options: [{ label: 'Allow', description: 'once' }],
        multiSelect: false,
      },
    },
    {
      type: 'QuestionAsked',
      ...WIRE_BASE,
      request: {
        questionId: 'perm-1',
        header: 'Permission',
        question: 'Run rm?',
        options: [{ label: 'Allow', description: 'once' }],
        multiSelect: false,
      },
    },
  ],
  [
    'ToolUseDelta',
    { type: 'ToolUseDelta', ...BASE, callId: 'call-1', toolName: 'add', argumentsDelta: '{"a":' },
    { type: 'ToolUseDelta', ...WIRE_BASE, callId: 'call-1', toolName: 'add', argumentsDelta: '{"a":' },
  ],
];
