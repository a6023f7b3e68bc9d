/**
 * The LS tool (category READ): a workspace directory's immediate entries, directories first, then files
 * (and other special files), then symbolic links, each group alphabetical; `/` marks a directory, `@` a
 * link, shown with its target text and never followed. Hidden entries are listed; the reserved memory
 * directory is not.
 */
import { defineTool, type Tool, type ToolArguments, ToolResult } from '@helios/core';
import { type WorkspaceEntry, type WorkspaceEntryType } from '../workspace/io-common.js';
import { WorkspacePathError } from '../workspace/workspace-error.js';
import { type WorkspaceRoot } from '../workspace/workspace-root.js';
import { isReserved, refusedResult, toolPath } from './reserved.js';

export const LS_TOOL = 'LS';
export const LS_EMPTY = '(empty directory)';

const GROUP: Readonly<Record<WorkspaceEntryType, number>> = { Directory: 0, File: 1, Other: 1, Symlink: 2 };

export function lsTool(root: WorkspaceRoot): Tool {
  return defineTool({
    name: LS_TOOL,
    description:
      'List a workspace directory: directories (ending "/") first, then files, then symbolic links ' +
      '(ending "@", with their target; not followed).',
    idempotent: true,
    jsonSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Directory relative to the workspace root (default ".").' },
      },
    },
    execute: (args) => ls(root, args),
  });
}

async function ls(root: WorkspaceRoot, args: ToolArguments): Promise<ToolResult> {
  try {
    const { relative } = await toolPath(root, (args['path'] as string | undefined) ?? '.');
    const pathOf = (name: string): string => (relative === '.' ? name : `${relative}/${name}`);
    const entries = (await root.readDir(relative))
      .filter((entry) => !isReserved(pathOf(entry.name)))
      .sort((a, b) => GROUP[a.type] - GROUP[b.type] || (a.name < b.name ? -1 : 1));
    if (entries.length === 0) return ToolResult.success(LS_EMPTY);
    const lines = await Promise.all(entries.map((entry) => line(root, entry, pathOf(entry.name))));
    return ToolResult.success(lines.join('\n'));
  } catch (error) {
    return refusedResult(LS_TOOL, error);
  }
}

async function line(root: WorkspaceRoot, entry: WorkspaceEntry, path: string): Promise<string> {
  if (entry.type === 'Directory') return `${entry.name}/`;
  if (entry.type !== 'Symlink') return entry.name;
  const target = await root.readLink(path).catch((error: unknown) => {
    // Replaced by something else since the listing: show it as a link of unknown target.
    if (error instanceof WorkspacePathError) return undefined;
    throw error;
  });
  return target === undefined ? `${entry.name}@` : `${entry.name}@ -> ${target}`;
}
