/** The four built-in file tools on one WorkspaceRoot, bound with their categories and permission keys. */
import { argumentKey, bindTool, type ToolBinding } from '../tools/tool-binding.js';
import { type WorkspaceRoot } from '../workspace/workspace-root.js';
import { globTool } from './glob-tool.js';
import { grepTool } from './grep-tool.js';
import { lsTool } from './ls-tool.js';
import { readTool } from './read-tool.js';

/**
 * Read and LS (READ), Grep and Glob (SEARCH) on `root`; permission rules match their `path` argument
 * (`.` when omitted).
 */
export function workspaceToolBindings(root: WorkspaceRoot): ToolBinding[] {
  const key = { permissionKey: argumentKey('path', '.') };
  return [
    bindTool(readTool(root), 'READ', key),
    bindTool(grepTool(root), 'SEARCH', key),
    bindTool(globTool(root), 'SEARCH', key),
    bindTool(lsTool(root), 'READ', key),
  ];
}
