/** The longest prefix of `text` that fits `maxBytes` of UTF-8, cut between code points (never inside one). */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
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
