/** Read: numbering, paging, caps at their edges with their footers, attachments, binaries. */
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_IMAGE_BYTES,
  MAX_LINE_CHARS,
  MAX_PDF_BYTES,
  MAX_READ_FILE_BYTES,
  MAX_READ_OUTPUT_CHARS,
  readTool,
  WorkspaceRoot,
} from '../../src/index.js';
import { makeSandbox, type Sandbox } from '../workspace/fixtures.js';
import { call, failure, output } from './tool-fixtures.js';

let box: Sandbox;
let read: ReturnType<typeof readTool>;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const lines = (n: number, from = 1): string =>
  Array.from({ length: n }, (_, i) => `line ${i + from}`).join('\n') + '\n';

beforeEach(() => {
  box = makeSandbox();
  read = readTool(new WorkspaceRoot(box.root));
});
afterEach(() => box.cleanup());

describe('text', () => {
  it('numbers lines as %6d<TAB>line, CRLF and a final newline included', async () => {
    writeFileSync(join(box.root, 'a.txt'), 'alpha\r\nbeta\n\ngamma');
    expect(await output(read, { path: 'a.txt' })).toBe(
      '     1\talpha\n     2\tbeta\n     3\t\n     4\tgamma',
    );
  });

  it('widens numbers past six digits', async () => {
    writeFileSync(join(box.root, 'big.txt'), lines(1_000_001));
    const text = await output(read, { path: 'big.txt', offset: 999_999, limit: 2 });
    expect(text).toBe(
      '999999\tline 999999\n1000000\tline 1000000\n\n[showing lines 999999-1000000 of 1000001; continue with offset=1000001]',
    );
  });

  it('pages with offset and limit, and the footer names the next offset', async () => {
    writeFileSync(join(box.root, 'a.txt'), lines(10));
    const page = await output(read, { path: 'a.txt', offset: 3, limit: 4 });
    expect(page).toBe(
      '     3\tline 3\n     4\tline 4\n     5\tline 5\n     6\tline 6\n\n' +
        '[showing lines 3-6 of 10; continue with offset=7]',
    );
    expect(await output(read, { path: 'a.txt', offset: 7, limit: 4 })).toBe(
      '     7\tline 7\n     8\tline 8\n     9\tline 9\n    10\tline 10',
    );
    expect(await output(read, { path: 'a.txt', offset: 10 })).toBe('    10\tline 10');
  });

  it('shows 2,000 lines by default', async () => {
    writeFileSync(join(box.root, 'a.txt'), lines(2_001));
    const text = await output(read, { path: 'a.txt' });
    expect(text).toContain('  2000\tline 2000\n\n[showing lines 1-2000 of 2001; continue with offset=2001]');
    writeFileSync(join(box.root, 'b.txt'), lines(2_000));
    expect(await output(read, { path: 'b.txt' })).toMatch(/ {2}2000\tline 2000$/);
  });

  it('refuses an offset past the end and invalid paging values', async () => {
    writeFileSync(join(box.root, 'a.txt'), lines(3));
    expect(await failure(read, { path: 'a.txt', offset: 4 })).toContain('past the end');
    expect(await failure(read, { path: 'a.txt', offset: 0 })).toContain('offset');
    expect(await failure(read, { path: 'a.txt', limit: 0 })).toContain('limit');
    expect(await failure(read, { path: 'a.txt', offset: 1.5 })).toContain('offset');
    expect(await failure(read, {})).toContain('path');
  });

  it('says when a file is empty', async () => {
    writeFileSync(join(box.root, 'empty.txt'), '');
    expect(await output(read, { path: 'empty.txt' })).toBe('[empty.txt is empty]');
  });

  it('cuts a line at 1 MiB characters with a note, and not one character earlier', async () => {
    const exact = 'x'.repeat(MAX_LINE_CHARS);
    writeFileSync(join(box.root, 'exact.txt'), `${exact}\n`);
    expect(await output(read, { path: 'exact.txt' })).toBe(`     1\t${exact}`);
    writeFileSync(join(box.root, 'long.txt'), `${exact}yz\nnext\n`);
    const text = await output(read, { path: 'long.txt' });
    expect(text).toBe(
      `     1\t${exact} [line truncated: 2 more characters not shown; use Grep to search it]\n     2\tnext`,
    );
  });

  it('stops at 4 MiB of output with a footer naming the offset that continues', async () => {
    // Each numbered line is 7 + 1016 characters plus its newline: 1024, so 4096 of them fill 4 MiB.
    const body = 'y'.repeat(1016);
    const perLine = 4096;
    writeFileSync(join(box.root, 'wide.txt'), Array.from({ length: perLine + 5 }, () => body).join('\n'));
    const text = await output(read, { path: 'wide.txt', limit: 10_000 });
    const [shown, footer] = text.split('\n\n');
    expect(shown?.split('\n')).toHaveLength(perLine);
    expect(shown?.length).toBeLessThanOrEqual(MAX_READ_OUTPUT_CHARS);
    expect(footer).toBe(
      `[output truncated at ${MAX_READ_OUTPUT_CHARS} characters: showing lines 1-${perLine} of ${perLine + 5}; ` +
        `continue with offset=${perLine + 1}, or use Grep to find what you need]`,
    );
    const rest = await output(read, { path: 'wide.txt', offset: perLine + 1, limit: 10_000 });
    expect(rest.split('\n')).toHaveLength(5);
  });
});

describe('the 25 MiB file cap', () => {
  it('reads a file of exactly 25 MiB and refuses one byte more', async () => {
    const file = join(box.root, 'huge.txt');
    writeFileSync(file, '');
    truncateSync(file, MAX_READ_FILE_BYTES);
    // Zero bytes: read in full, then refused as binary (not as too large).
    expect(await failure(read, { path: 'huge.txt' })).toContain('binary file');
    truncateSync(file, MAX_READ_FILE_BYTES + 1);
    const refused = await failure(read, { path: 'huge.txt' });
    expect(refused).toContain('larger than the byte budget');
    expect(refused).toContain(String(MAX_READ_FILE_BYTES));
  });
});

describe('attachments and binaries', () => {
  it('attaches a PNG (by content, whatever the name) with a short note', async () => {
    writeFileSync(join(box.root, 'shot.dat'), PNG);
    const result = await call(read, { path: 'shot.dat' });
    expect(result.type).toBe('Success');
    expect(result.output).toBe('[shot.dat: image/png, 12 bytes, attached]');
    expect(result.attachments).toHaveLength(1);
    expect(result.attachments[0]).toMatchObject({
      type: 'InlineFile',
      mimeType: 'image/png',
      name: 'shot.dat',
    });
    expect(Buffer.from(result.attachments[0]?.data ?? [])).toEqual(PNG);
  });

  it.each([
    ['jpeg', [0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
    ['gif', [...Buffer.from('GIF89a'), 1], 'image/gif'],
    ['webp', [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBP')], 'image/webp'],
    ['bmp', [...Buffer.from('BM'), 30, 0, 0, 0, 0, 0, 0, 0], 'image/bmp'],
    ['pdf', [...Buffer.from('%PDF-1.7\n')], 'application/pdf'],
  ])('attaches %s', async (_name, bytes, mimeType) => {
    writeFileSync(join(box.root, 'f'), Buffer.from(bytes));
    const result = await call(read, { path: 'f' });
    expect(result.attachments[0]?.mimeType).toBe(mimeType);
  });

  it('reads text that merely starts like a BMP as text', async () => {
    writeFileSync(join(box.root, 'cars.txt'), 'BMW and Audi\n');
    expect(await output(read, { path: 'cars.txt' })).toBe('     1\tBMW and Audi');
  });

  it('attaches images up to 5 MiB and PDFs up to 20 MiB, refusing larger ones', async () => {
    const image = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    PNG.copy(image);
    writeFileSync(join(box.root, 'at.png'), image.subarray(0, MAX_IMAGE_BYTES));
    expect((await call(read, { path: 'at.png' })).attachments).toHaveLength(1);
    writeFileSync(join(box.root, 'over.png'), image);
    expect(await failure(read, { path: 'over.png' })).toContain(`exceeds the ${MAX_IMAGE_BYTES}-byte limit`);
    const pdf = Buffer.alloc(MAX_PDF_BYTES + 1, 0x20);
    pdf.write('%PDF-1.4');
    writeFileSync(join(box.root, 'at.pdf'), pdf.subarray(0, MAX_PDF_BYTES));
    expect((await call(read, { path: 'at.pdf' })).attachments).toHaveLength(1);
    writeFileSync(join(box.root, 'over.pdf'), pdf);
    expect(await failure(read, { path: 'over.pdf' })).toContain(`exceeds the ${MAX_PDF_BYTES}-byte limit`);
  });

  it('refuses other binaries (a NUL in the first 8 KiB) but reads a NUL after it as text', async () => {
    writeFileSync(join(box.root, 'bin'), Buffer.from([1, 2, 0, 3]));
    expect(await failure(read, { path: 'bin' })).toContain('binary file');
    writeFileSync(join(box.root, 'late'), Buffer.concat([Buffer.alloc(8192, 0x61), Buffer.from([0])]));
    expect((await output(read, { path: 'late' })).startsWith('     1\taaa')).toBe(true);
  });
});
