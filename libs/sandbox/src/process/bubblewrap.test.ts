import { describe, expect, it } from 'vitest';
import { bubblewrapArgs, findBubblewrap, resolveOsLayer } from './bubblewrap.js';

describe('resolveOsLayer', () => {
  it('says why there is no OS layer when it is off, missing or broken', () => {
    expect(resolveOsLayer('off', '/usr/bin/bwrap')).toEqual({
      type: 'none',
      reason: 'the OS layer is turned off (osSandbox: off)',
    });
    expect(resolveOsLayer('auto', undefined)).toMatchObject({
      type: 'none',
      reason: 'bubblewrap (bwrap) is not installed',
    });
    expect(resolveOsLayer('auto', '/bin/false')).toEqual({
      type: 'none',
      reason: 'bubblewrap is installed but cannot run here (exit 1)',
    });
    const missing = resolveOsLayer('required', '/nonexistent/bwrap');
    expect(missing).toMatchObject({
      type: 'none',
      reason: expect.stringContaining('cannot run here (spawnSync /nonexistent/bwrap ENOENT)') as unknown,
    });
  });

  it('finds bwrap on a PATH of absolute directories only', () => {
    expect(findBubblewrap('/nonexistent:relative/bin')).toBeUndefined();
  });
});

describe('bubblewrapArgs', () => {
  it('isolates everything, mounts the read-only paths and the scratch, then runs the command', () => {
    const args = bubblewrapArgs(
      { readOnly: ['/srv/app', '/srv/node_modules'], scratch: '/tmp/helios-sandbox-x' },
      ['/usr/bin/node', 'main.js'],
    );
    const joined = args.join(' ');
    for (const flag of [
      '--die-with-parent',
      '--new-session',
      '--unshare-all',
      '--unshare-user',
      '--uid 65534',
      '--gid 65534',
      '--cap-drop ALL',
      '--clearenv',
    ]) {
      expect(joined).toContain(flag);
    }
    expect(joined).toContain('--ro-bind /usr /usr');
    expect(joined).toContain(
      '--proc /proc --dev /dev --tmpfs /tmp --ro-bind /srv/app /srv/app --ro-bind /srv/node_modules /srv/node_modules',
    );
    expect(joined).toContain(
      '--bind /tmp/helios-sandbox-x /tmp/helios-sandbox-x --chdir /tmp/helios-sandbox-x -- /usr/bin/node main.js',
    );
    expect(joined.indexOf('--tmpfs /tmp')).toBeLessThan(joined.indexOf('--bind /tmp/helios-sandbox-x'));
  });
});
