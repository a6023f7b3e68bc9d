/** UTF-8 needs at most 3 bytes per UTF-16 unit: a string that short cannot be over, uncounted. */
const MAX_BYTES_PER_UNIT = 3;

/** Whether `text` takes more than `maxBytes` of UTF-8 (counted only when it might). */
export function exceedsUtf8Bytes(text: string, maxBytes: number): boolean {
  return text.length * MAX_BYTES_PER_UNIT > maxBytes && Buffer.byteLength(text, 'utf8') > maxBytes;
}

/** The longest prefix of `text` that fits `maxBytes` of UTF-8, cut between code points (never inside one). */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (!exceedsUtf8Bytes(text, maxBytes)) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}
