/**
 * TypeScript snippets become JavaScript with sucrase: types are removed, nothing is type-checked, lines
 * stay where they were. Sucrase is loaded on the first TypeScript snippet only (it costs ~100 ms), and
 * in the child, so parsing untrusted text never stalls the host's event loop.
 */
import { createRequire } from 'node:module';

type Transform = (
  code: string,
  options: { transforms: string[]; disableESTransforms: boolean },
) => { code: string };

let transform: Transform | undefined;

export function transpileTypeScript(source: string): string {
  transform ??= (createRequire(import.meta.url)('sucrase') as { transform: Transform }).transform;
  return transform(source, { transforms: ['typescript'], disableESTransforms: true }).code;
}
