import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const workspace = resolve(import.meta.dirname, '../../../..');
const generator = join(workspace, 'node_modules/.bin/openapi-typescript');

describe("the dashboard's API types", () => {
  // `npm run openapi` regenerates both the document (from the API's code) and these types.
  it('are what openapi-typescript makes of the committed OpenAPI document', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helios-api-types-'));
    try {
      const fresh = join(dir, 'api-schema.ts');
      await promisify(execFile)(generator, [join(workspace, 'docs/api/openapi.json'), '-o', fresh]);
      const committed = await readFile(join(import.meta.dirname, 'api-schema.ts'), 'utf8');
      expect(committed).toBe(await readFile(fresh, 'utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
