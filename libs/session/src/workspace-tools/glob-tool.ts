/**
 * The Glob tool (category SEARCH): workspace files below `path` whose path relative to `path` matches
 * `pattern`, newest modification first, at most 1,000. Hidden directories and the reserved memory
 * directory are pruned; paths are answered relative to the workspace root.
 */
import { defineTool, type Tool, type ToolArguments, ToolResult } from '@helios/core';
import { WorkspacePathError } from '../workspace/workspace-error.js';
import { type WorkspaceRoot } from '../workspace/workspace-root.js';
import { compileGlob } from './glob-pattern.js';
import { descendable, isReserved, refusedResult, toolPath } from './reserved.js';

export const GLOB_TOOL = 'Glob';
export const MAX_GLOB_RESULTS = 1_000;
export const GLOB_TRUNCATED = `[truncated at ${MAX_GLOB_RESULTS} results]`;

export function globTool(root: WorkspaceRoot): Tool {
  return defineTool({
    name: GLOB_TOOL,
    description:
      'Find workspace files by glob (e.g. "**/*.ts", "src/*.{js,json}"), matched against paths relative ' +
      `to the search path. Answers paths relative to the root, newest first, at most ${MAX_GLOB_RESULTS}.`,
    idempotent: true,
    jsonSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The glob, relative to the search path.' },
        path: { type: 'string', description: 'Directory to search, relative to the root (default ".").' },
      },
      required: ['pattern'],
    },
    execute: (args, context) => glob(root, args, context.signal),
  });
}

interface Found {
  readonly path: string;
  readonly mtimeMs: number;
}

async function glob(root: WorkspaceRoot, args: ToolArguments, signal: AbortSignal): Promise<ToolResult> {
  const matcher = compileGlob(args['pattern'] as string);
  if (typeof matcher === 'string') return ToolResult.failure(`invalid pattern: ${matcher}`);
  const found: Found[] = [];
  try {
    const { relative: start } = await toolPath(root, (args['path'] as string | undefined) ?? '.');
    const prefix = start === '.' ? '' : `${start}/`;
    for await (const entry of root.walk(start, { descend: descendable })) {
      signal.throwIfAborted();
      if (entry.type !== 'File' || isReserved(entry.path)) continue;
      if (!matcher(entry.path.slice(prefix.length))) continue;
      const mtimeMs = await modified(root, entry.path);
      if (mtimeMs !== undefined) found.push({ path: entry.path, mtimeMs });
    }
  } catch (error) {
    return refusedResult(GLOB_TOOL, error);
  }
  found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
  const paths = found.slice(0, MAX_GLOB_RESULTS).map((f) => f.path);
  if (found.length > MAX_GLOB_RESULTS) paths.push(GLOB_TRUNCATED);
  return ToolResult.success(paths.join('\n'));
}

/** The file's modification time, or undefined when it vanished (or was swapped) since the walk met it. */
async function modified(root: WorkspaceRoot, path: string): Promise<number | undefined> {
  try {
    return (await root.stat(path)).mtimeMs;
  } catch (error) {
    if (error instanceof WorkspacePathError) return undefined;
    throw error;
  }
}
