import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Where screenshots go: `HELIOS_E2E_ARTIFACTS` when set (kept for a human to look at), otherwise the
 * test's temporary directory (removed with it).
 */
export async function screenshotDir(tempDir: string): Promise<string> {
  const dir = process.env.HELIOS_E2E_ARTIFACTS ?? join(tempDir, 'screenshots');
  await mkdir(dir, { recursive: true });
  return dir;
}

/** True when `path` holds a non-empty PNG image. */
export async function isPng(path: string): Promise<boolean> {
  const bytes = await readFile(path);
  return bytes.length > PNG_SIGNATURE.length && bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE);
}
