/**
 * The OS layer around each sandbox child: bubblewrap, when a probe run works here. The child gets new
 * user, pid, network, ipc, uts and cgroup namespaces (no network at all, not even the host's loopback;
 * no host process visible or signalable), runs as uid/gid 65534 with no capabilities and no
 * environment, and sees only /usr (read-only), the directories it must read (read-only), its own
 * /proc, /dev and /tmp, and its scratch directory. `--die-with-parent` ends it with the host, and the
 * pid namespace takes every descendant down with it.
 *
 * Mode `auto` (the default) uses it when the probe succeeds and otherwise says so in the Execute tool's
 * description; `required` refuses to work without it; `off` never uses it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export type OsSandboxMode = 'required' | 'auto' | 'off';

export type OsLayer =
  | { readonly type: 'bubblewrap'; readonly binary: string }
  | { readonly type: 'none'; readonly reason: string };

const ROOT_LINKS = ['/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];
const NOBODY = '65534';
const PROBE_TIMEOUT_MS = 10_000;

/** The layer `mode` gives with the bwrap at `binary` (undefined: none installed). */
export function resolveOsLayer(mode: OsSandboxMode, binary: string | undefined): OsLayer {
  if (mode === 'off') return { type: 'none', reason: 'the OS layer is turned off (osSandbox: off)' };
  if (binary === undefined) return { type: 'none', reason: 'bubblewrap (bwrap) is not installed' };
  const probe = spawnSync(
    binary,
    bubblewrapArgs({ readOnly: [], scratch: undefined }, [process.execPath, '--version']),
    {
      env: {},
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: PROBE_TIMEOUT_MS,
      encoding: 'utf8',
    },
  );
  if (probe.status === 0) return { type: 'bubblewrap', binary };
  const why = probe.error?.message ?? (probe.stderr.trim() || `exit ${String(probe.status ?? probe.signal)}`);
  return { type: 'none', reason: `bubblewrap is installed but cannot run here (${why})` };
}

/** bwrap's arguments for `command`: isolation flags, the mounts, then the command. */
export function bubblewrapArgs(
  mounts: { readonly readOnly: readonly string[]; readonly scratch: string | undefined },
  command: readonly string[],
): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-all', '--unshare-user'];
  args.push('--uid', NOBODY, '--gid', NOBODY, '--cap-drop', 'ALL', '--clearenv');
  args.push('--ro-bind', '/usr', '/usr', ...rootLinks(), ...runtimeMount());
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const path of mounts.readOnly) args.push('--ro-bind', path, path);
  if (mounts.scratch !== undefined)
    args.push('--bind', mounts.scratch, mounts.scratch, '--chdir', mounts.scratch);
  return [...args, '--', ...command];
}

/** Merged-/usr systems link /bin, /lib… into /usr; older ones have real directories there. */
function rootLinks(): string[] {
  const args: string[] = [];
  for (const path of ROOT_LINKS) {
    if (!existsSync(path)) continue;
    if (lstatSync(path).isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else args.push('--ro-bind', path, path);
  }
  return args;
}

/** The Node installation the child runs, when it is not under /usr (nvm, /opt, …). */
function runtimeMount(): string[] {
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  return prefix === '/usr' || prefix.startsWith('/usr/') ? [] : ['--ro-bind', prefix, prefix];
}

/** bwrap's path on `path` (default this process's PATH), or undefined. */
export function findBubblewrap(
  path = process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
): string | undefined {
  return path
    .split(delimiter)
    .map((dir) => join(dir, 'bwrap'))
    .find((candidate) => candidate.startsWith('/') && existsSync(candidate));
}
