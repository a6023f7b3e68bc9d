/**
 * Three curated starting points, each a `SessionOptionsBuilder` already holding the model:
 * `minimal` (model only), `readOnly` (Read, Grep, Glob, LS on a WorkspaceRoot under
 * `Permission.planMode()`), `workspace` (the same tools plus a FileSystemMemoryBackend's MemoryRead and
 * MemoryWrite under `Permission.defaultInWorkspace()`).
 */
import { type Model } from '@helios/core';
import { FileSystemMemoryBackend } from '../memory/file-system-memory-backend.js';
import { Permission } from '../permissions/permission.js';
import { WorkspaceRoot } from '../workspace/workspace-root.js';
import { workspaceToolBindings } from '../workspace-tools/workspace-tools.js';
import { SessionOptionsBuilder } from './session-options-builder.js';

export const SessionPresets = Object.freeze({
  /** The model and every default (the policy is `Permission.empty()`). */
  minimal(model: Model): SessionOptionsBuilder {
    return new SessionOptionsBuilder(model);
  },

  /** Read, Grep, Glob and LS on `root` (a path opens a strict WorkspaceRoot); `Permission.planMode()`. */
  readOnly(model: Model, root: string | WorkspaceRoot): SessionOptionsBuilder {
    return new SessionOptionsBuilder(model)
      .withTools(workspaceToolBindings(workspaceRoot(root)))
      .withPermission(Permission.planMode());
  },

  /**
   * The read tools on `root`, MemoryRead and MemoryWrite on `<root>/.agent/memory`, and
   * `Permission.defaultInWorkspace()` (reads and memory run; Write, Edit, MultiEdit and Execute ask).
   */
  workspace(model: Model, root: string | WorkspaceRoot): SessionOptionsBuilder {
    const workspace = workspaceRoot(root);
    return new SessionOptionsBuilder(model)
      .withTools(workspaceToolBindings(workspace))
      .withMemoryBackend(new FileSystemMemoryBackend(workspace))
      .withPermission(Permission.defaultInWorkspace());
  },
});

function workspaceRoot(root: string | WorkspaceRoot): WorkspaceRoot {
  return root instanceof WorkspaceRoot ? root : new WorkspaceRoot(root);
}
