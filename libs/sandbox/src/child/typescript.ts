/**
 * TypeScript snippets become JavaScript with sucrase: types are removed, nothing is type-checked, lines
 * stay where they were. It runs in the child, so parsing untrusted text never stalls the host's event
 * loop; the child's bundle loads sucrase at the first TypeScript snippet only (it costs ~100 ms).
 */
import { transform } from 'sucrase';

export function transpileTypeScript(source: string): string {
  return transform(source, { transforms: ['typescript'], disableESTransforms: true }).code;
}
