/**
 * The glob of a permission rule, matched against a model-chosen permission key. `**` any characters,
 * `*` any except `/`, `?` one character except `/`, everything else literal; the whole key must match.
 * Matched by advancing every pattern position at once, O(key × glob): a compiled backtracking RegExp
 * took polynomial time on `*_*_*_*_*_*!` against a long key.
 */

type Token =
  | { readonly kind: 'literal'; readonly char: string }
  | { readonly kind: 'one' }
  | { readonly kind: 'star' }
  | { readonly kind: 'globstar' };

export type KeyMatcher = (key: string) => boolean;

export function compileKeyGlob(glob: string): KeyMatcher {
  const tokens = tokenize(glob);
  return (key) => matchTokens(tokens, key);
}

function tokenize(glob: string): readonly Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      tokens.push({ kind: 'globstar' });
      i += 1;
    } else if (char === '*') tokens.push({ kind: 'star' });
    else if (char === '?') tokens.push({ kind: 'one' });
    else tokens.push({ kind: 'literal', char });
  }
  return tokens;
}

/** `live[i]`: the key read so far can be matched by the first `i` tokens. */
function matchTokens(tokens: readonly Token[], key: string): boolean {
  let live = new Uint8Array(tokens.length + 1);
  let next = new Uint8Array(tokens.length + 1);
  live[0] = 1;
  skipWildcards(tokens, live);
  // UTF-16 code units, as the RegExp this replaced (no `u` flag) read them.
  for (let position = 0; position < key.length; position += 1) {
    const char = key[position] as string;
    next.fill(0);
    let any = false;
    for (let i = 0; i < tokens.length; i += 1) {
      if (live[i] === 0) continue;
      const token = tokens[i] as Token;
      if (token.kind === 'globstar' || (token.kind === 'star' && char !== '/')) next[i] = 1;
      else if ((token.kind === 'one' && char !== '/') || (token.kind === 'literal' && token.char === char))
        next[i + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    skipWildcards(tokens, next);
    [live, next] = [next, live];
  }
  return live[tokens.length] === 1;
}

/** A star or globstar may also match nothing: whoever reaches one also reaches what follows it. */
function skipWildcards(tokens: readonly Token[], live: Uint8Array): void {
  for (let i = 0; i < tokens.length; i += 1) {
    const kind = (tokens[i] as Token).kind;
    if (live[i] === 1 && (kind === 'star' || kind === 'globstar')) live[i + 1] = 1;
  }
}
