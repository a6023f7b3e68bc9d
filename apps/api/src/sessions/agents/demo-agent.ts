/**
 * The built-in `demo` agent, served when `helios.yaml` names no agents: a scripted model (no provider,
 * no key) that shows the product working on `npm start` alone. Each run reads `welcome.md` from a
 * demo workspace under the data directory, asks permission to note what it read in memory (a
 * MemoryWrite, which the demo's policy asks about), then answers. Labelled `scripted` wherever agents
 * are listed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createModel, type Message, type Model, toolCall } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { type AgentConfig } from '../../config/agents.schema.js';

export const DEMO_AGENT = 'demo';
export const DEMO_MODEL = 'scripted/demo';
export const DEMO_FILE = 'welcome.md';

const WELCOME = `# Welcome to Helios

This file lives in the demo agent's workspace. The demo agent read it with the Read tool, then asked
you before writing a note to its memory: writes need your permission, reads do not.

Configure real agents under \`agents:\` in helios.yaml to talk to a model.
`;

/** The demo agent's settings, as if written in helios.yaml. */
export function demoAgentConfig(workspace: string): AgentConfig {
  return {
    model: DEMO_MODEL,
    preset: 'workspace',
    workspace,
    systemPrompt: 'You are the Helios demo agent.',
    permission: {
      mode: 'DEFAULT',
      allow: ['Read(**)', 'LS(**)', 'Glob(**)', 'Grep(**)', 'MemoryRead(**)'],
      ask: ['MemoryWrite(**)'],
      deny: [],
    },
    limits: { maxTurns: 5 },
    store: 'memory',
  };
}

/** `<dataDir>/demo-workspace` with its one file (rewritten at each start), 0700/0600. */
export async function prepareDemoWorkspace(dataDir: string): Promise<string> {
  const root = join(dataDir, 'demo-workspace');
  await mkdir(root, { recursive: true, mode: 0o700 });
  await writeFile(join(root, DEMO_FILE), WELCOME, { mode: 0o600 });
  return root;
}

/**
 * A model that plays the demo script once per run: a run starts with a user message, so a request
 * whose last message is the user's gets a fresh script; the tool results that follow continue it.
 */
export function demoModel(): Model {
  let script: ScriptedModel | undefined;
  let runs = 0;
  return createModel({
    id: 'demo',
    provider: 'scripted',
    stream(request, signal) {
      if (script === undefined || script.remainingTurns === 0 || lastRole(request.messages) === 'user') {
        runs += 1;
        script = demoScript(runs);
      }
      return script.chatStream(request.messages, request.tools, { signal });
    },
  });
}

function demoScript(run: number): ScriptedModel {
  return new ScriptedModel({ id: 'demo' })
    .thenToolCalls([toolCall(`demo-read-${run}`, 'Read', { path: DEMO_FILE })], {
      text: `Let me read ${DEMO_FILE} from my workspace.`,
    })
    .thenToolCalls(
      [
        toolCall(`demo-note-${run}`, 'MemoryWrite', {
          op: 'create',
          path: `/memories/demo-note-${Date.now()}-${run}.md`,
          content: `I read ${DEMO_FILE} (run ${run}).\n`,
        }),
      ],
      { text: 'I would like to keep a note of that in my memory; that is a write, so I ask first.' },
    )
    .thenText(
      `Done. I read ${DEMO_FILE} (it welcomes you to Helios) and asked before writing to memory. ` +
        'This answer is scripted: configure agents in helios.yaml to talk to a real model.',
    );
}

function lastRole(messages: readonly Message[]): Message['role'] | undefined {
  return messages[messages.length - 1]?.role;
}
