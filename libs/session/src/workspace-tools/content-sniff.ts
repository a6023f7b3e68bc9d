/**
 * What a file's bytes are, judged from the bytes alone (no platform detector reopens the path): an image
 * or PDF the model receives as an attachment, likely text, or binary.
 */

/** How much of a file's start is searched for a NUL byte. */
export const SNIFF_BYTES = 8 * 1024;

export type MediaKind = 'image' | 'pdf';

export interface Media {
  readonly kind: MediaKind;
  readonly mimeType: string;
}

const SIGNATURES: readonly { readonly bytes: readonly number[]; readonly media: Media }[] = [
  {
    bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    media: { kind: 'image', mimeType: 'image/png' },
  },
  { bytes: [0xff, 0xd8, 0xff], media: { kind: 'image', mimeType: 'image/jpeg' } },
  { bytes: [0x47, 0x49, 0x46, 0x38, 0x37, 0x61], media: { kind: 'image', mimeType: 'image/gif' } },
  { bytes: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], media: { kind: 'image', mimeType: 'image/gif' } },
  // "BM", the file size, then four reserved zero bytes: text starting "BM" has no NULs there.
  { bytes: [0x42, 0x4d], media: { kind: 'image', mimeType: 'image/bmp' } },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], media: { kind: 'pdf', mimeType: 'application/pdf' } },
];

const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];

/** The image or PDF the bytes start like, if any. */
export function sniffMedia(bytes: Uint8Array): Media | undefined {
  if (startsWith(bytes, RIFF) && startsWith(bytes.subarray(8), WEBP)) {
    return { kind: 'image', mimeType: 'image/webp' };
  }
  const media = SIGNATURES.find(({ bytes: signature }) => startsWith(bytes, signature))?.media;
  if (
    media?.mimeType === 'image/bmp' &&
    !(bytes.length >= 10 && bytes.subarray(6, 10).every((b) => b === 0))
  ) {
    return undefined;
  }
  return media;
}

/** A NUL byte in the first SNIFF_BYTES bytes marks a file as binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}
