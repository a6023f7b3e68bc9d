/**
 * Signed thinking bound to its prompt. On some models (catalogue: `bindsThinkingToPrompt`) the API
 * accepts a turn's thinking back only under the system prompt and tool set it was produced under. Each
 * turn that thought records a fingerprint of both; a request under another prompt leaves that turn's
 * thinking out, so the change costs the earlier reasoning (and the prompt cache) once, never the request.
 */
import { hash } from 'node:crypto';
import { type AssistantMessage, type ToolDefinition } from '@helios/core';
import { isRecord } from '../shared/error-mapping.js';
import { METADATA } from './anthropic-metadata.js';

type Block = Record<string, unknown>;

const THINKING = new Set(['thinking', 'redacted_thinking']);

/**
 * sha256 (hex) of the canonical JSON of the system prompt as sent and the client tools (name,
 * description, input schema). Canonical, so a stored schema whose keys came back reordered is still the
 * same prompt; cache breakpoints are not part of it.
 */
export function promptFingerprint(system: string, tools: readonly ToolDefinition[]): string {
  const prompt = {
    system,
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    })),
  };
  return hash('sha256', JSON.stringify(canonical(prompt)), 'hex');
}

/** Whether a block is thinking, signed or redacted: the blocks bound to the prompt. */
export function isThinkingBlock(block: Block): boolean {
  return THINKING.has(String(block['type']));
}

/**
 * Whether an earlier turn's thinking may be sent under the prompt `current` (undefined: the model does
 * not bind thinking, so it always may). A turn without a fingerprint (history written before turns
 * recorded one) counts as produced under another prompt: its thinking, if any, is dropped, since sending
 * it might fail the request and dropping it only costs reasoning.
 */
export function keepsThinking(message: AssistantMessage, current: string | undefined): boolean {
  return current === undefined || message.metadata[METADATA.promptFingerprint] === current;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical(value[key])]),
  );
}
