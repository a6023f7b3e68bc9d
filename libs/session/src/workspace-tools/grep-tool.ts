/**
 * The Grep tool (category SEARCH): a JavaScript regular expression searched line by line through the
 * workspace files below `path`, optionally only files whose name matches `include`. Hidden directories
 * (below the start) and the reserved memory directory are pruned; files over 1 MiB, binary files (a NUL
 * in the first 8 KiB) and malformed UTF-8 are skipped. Output: `path:line:content` lines, paths
 * relative to the workspace root, at most 1,000 matches.
 */
import { defineTool, type Tool, type ToolArguments, ToolResult } from '@helios/core';
import { WorkspacePathError } from '../workspace/workspace-error.js';
import { type WorkspaceRoot } from '../workspace/workspace-root.js';
import { looksBinary } from './content-sniff.js';
import { compileGlob, type GlobMatcher } from './glob-pattern.js';
import { splitLines } from './line-pager.js';
import { baseName, descendable, isReserved, refusedResult, toolPath } from './reserved.js';

export const GREP_TOOL = 'Grep';
/** Larger files are not searched (1 MiB). */
export const MAX_GREP_FILE_BYTES = 1024 * 1024;
export const MAX_GREP_MATCHES = 1_000;
export const GREP_TRUNCATED = `[truncated at ${MAX_GREP_MATCHES} matches]`;

export function grepTool(root: WorkspaceRoot): Tool {
  return defineTool({
    name: GREP_TOOL,
    description:
      'Search workspace files for a JavaScript regular expression. Answers "path:line:content" lines ' +
      `(at most ${MAX_GREP_MATCHES}), or nothing when no line matches. Skips hidden directories, ` +
      'binary files and files over 1 MiB.',
    idempotent: true,
    jsonSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'A JavaScript regular expression (no slashes, no flags).' },
        path: {
          type: 'string',
          description: 'Directory (or file) to search, relative to the root (default ".").',
        },
        include: { type: 'string', description: 'Only files whose name matches this glob, e.g. "*.ts".' },
      },
      required: ['pattern'],
    },
    execute: (args, context) => grep(root, args, context.signal),
  });
}

interface Search {
  readonly regex: RegExp;
  readonly matches: string[];
}

async function grep(root: WorkspaceRoot, args: ToolArguments, signal: AbortSignal): Promise<ToolResult> {
  let regex: RegExp;
  try {
    regex = new RegExp(args['pattern'] as string);
  } catch (error) {
    return ToolResult.failure('invalid pattern', error);
  }
  let include: GlobMatcher | undefined;
  if (typeof args['include'] === 'string') {
    const compiled = compileGlob(args['include']);
    if (typeof compiled === 'string') return ToolResult.failure(`invalid include: ${compiled}`);
    include = compiled;
  }
  const search: Search = { regex, matches: [] };
  try {
    for await (const file of files(root, (args['path'] as string | undefined) ?? '.')) {
      signal.throwIfAborted();
      if (include !== undefined && !include(baseName(file))) continue;
      if (!(await searchFile(root, file, search))) break;
    }
  } catch (error) {
    return refusedResult(GREP_TOOL, error);
  }
  if (search.matches.length <= MAX_GREP_MATCHES) return ToolResult.success(search.matches.join('\n'));
  return ToolResult.success(`${search.matches.slice(0, MAX_GREP_MATCHES).join('\n')}\n${GREP_TRUNCATED}`);
}

/** The regular files to search: `requested` itself when it is one, else those found by the walk. */
async function* files(root: WorkspaceRoot, requested: string): AsyncGenerator<string> {
  const { relative } = await toolPath(root, requested);
  if ((await root.stat(relative)).type === 'File') {
    yield relative;
    return;
  }
  for await (const entry of root.walk(relative, { descend: descendable })) {
    if (entry.type === 'File' && !isReserved(entry.path)) yield entry.path;
  }
}

/**
 * Adds the file's matching lines; false once there are more than MAX_GREP_MATCHES (the search stops:
 * one extra match is enough to know the output is truncated).
 */
async function searchFile(root: WorkspaceRoot, path: string, search: Search): Promise<boolean> {
  const text = await readText(root, path);
  if (text === undefined) return true;
  const lines = splitLines(text);
  for (const [index, line] of lines.entries()) {
    if (!search.regex.test(line)) continue;
    search.matches.push(`${path}:${index + 1}:${line}`);
    if (search.matches.length > MAX_GREP_MATCHES) return false;
  }
  return true;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The file as text, or undefined when it is skipped (too large, binary, not UTF-8, gone or swapped). */
async function readText(root: WorkspaceRoot, path: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await root.readFile(path, { maxBytes: MAX_GREP_FILE_BYTES });
  } catch (error) {
    if (error instanceof WorkspacePathError) return undefined;
    throw error;
  }
  if (looksBinary(bytes)) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
