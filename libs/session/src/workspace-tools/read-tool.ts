/**
 * The Read tool (category READ): a workspace file as `%6d<TAB>line` text from `offset` (1-based) for
 * `limit` lines, or an image or PDF as an attachment. Files over 25 MiB are refused (the read stops at
 * the budget), other binaries too.
 */
import { defineTool, inlineFile, type Tool, type ToolArguments, ToolResult } from '@helios/core';
import { type WorkspaceRoot } from '../workspace/workspace-root.js';
import { looksBinary, type Media, sniffMedia } from './content-sniff.js';
import { DEFAULT_READ_LIMIT, renderPage, splitLines } from './line-pager.js';
import { baseName, integerArgument, refusedResult, type ToolPath, toolPath } from './reserved.js';

export const READ_TOOL = 'Read';
/** The largest file Read opens (25 MiB). */
export const MAX_READ_FILE_BYTES = 25 * 1024 * 1024;
/** The largest image Read attaches (5 MiB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The largest PDF Read attaches (20 MiB). */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;

export function readTool(root: WorkspaceRoot): Tool {
  return defineTool({
    name: READ_TOOL,
    description:
      'Read a file of the workspace. Text comes back as numbered lines ("%6d<TAB>line"); use offset ' +
      '(1-based first line) and limit (number of lines) to page through long files. Images and PDFs ' +
      'come back as attachments.',
    idempotent: true,
    jsonSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace root.' },
        offset: { type: 'integer', description: 'First line to show, 1-based (default 1).', minimum: 1 },
        limit: {
          type: 'integer',
          description: `How many lines to show (default ${DEFAULT_READ_LIMIT}).`,
          minimum: 1,
        },
      },
      required: ['path'],
    },
    execute: (args) => read(root, args),
  });
}

async function read(root: WorkspaceRoot, args: ToolArguments): Promise<ToolResult> {
  const requested = args['path'] as string;
  const offset = integerArgument(args['offset'], 1, 1);
  const limit = integerArgument(args['limit'], DEFAULT_READ_LIMIT, 1);
  if (offset === undefined || limit === undefined) {
    return ToolResult.failure('offset and limit must be integers of at least 1');
  }
  let bytes: Buffer;
  let path: ToolPath;
  try {
    path = await toolPath(root, requested);
    bytes = await root.readFile(path.relative, { maxBytes: MAX_READ_FILE_BYTES });
  } catch (error) {
    return refusedResult(READ_TOOL, error);
  }
  const media = sniffMedia(bytes);
  if (media !== undefined) return attachment(path, bytes, media);
  if (looksBinary(bytes)) {
    return ToolResult.failure(
      `cannot read ${JSON.stringify(requested)}: it is a binary file (Read shows text, images and PDFs)`,
    );
  }
  const lines = splitLines(bytes.toString('utf8'));
  if (lines.length === 0) return ToolResult.success(`[${requested} is empty]`);
  if (offset > lines.length) {
    return ToolResult.failure(
      `offset ${offset} is past the end of ${JSON.stringify(requested)} (${lines.length} lines)`,
    );
  }
  return ToolResult.success(renderPage(lines, { offset, limit }));
}

function attachment({ requested, relative }: ToolPath, bytes: Buffer, media: Media): ToolResult {
  const cap = media.kind === 'pdf' ? MAX_PDF_BYTES : MAX_IMAGE_BYTES;
  if (bytes.length > cap) {
    return ToolResult.failure(
      `cannot attach ${JSON.stringify(requested)}: ${media.mimeType} of ${bytes.length} bytes exceeds the ${cap}-byte limit`,
    );
  }
  const file = inlineFile(new Uint8Array(bytes), media.mimeType, baseName(relative));
  return ToolResult.success(`[${requested}: ${media.mimeType}, ${bytes.length} bytes, attached]`, {
    attachments: [file],
  });
}
