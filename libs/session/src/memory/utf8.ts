/** Strict UTF-8: text with a lone surrogate, or bytes that do not decode, are refused, never replaced. */
import { MemoryError } from './memory-error.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const DECODER = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `content` (a string, or bytes that must be valid UTF-8), refused `InvalidUtf8` otherwise. */
export function strictText(path: string, content: unknown, what = 'content'): string {
  if (typeof content === 'string') {
    if (LONE_SURROGATE.test(content))
      throw new MemoryError(path, 'InvalidUtf8', `${what} has a lone surrogate`);
    return content;
  }
  if (content instanceof Uint8Array) return decodeStrict(path, content, what);
  throw new MemoryError(path, 'InvalidArgument', `${what} must be text`);
}

/** Decodes bytes as UTF-8, refusing malformed sequences. */
export function decodeStrict(path: string, bytes: Uint8Array, what = 'the file'): string {
  try {
    return DECODER.decode(bytes);
  } catch (error) {
    throw new MemoryError(path, 'InvalidUtf8', `${what} is not valid UTF-8`, { cause: error });
  }
}
