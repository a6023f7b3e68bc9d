/**
 * The glob of a permission rule, matched against a model-chosen permission key. `**` any characters,
 * `*` any except `/`, `?` one character except `/`, everything else literal; the whole key must match.
 * Matched by advancing every pattern position at once, O(key × glob): a compiled backtracking RegExp
 * took polynomial time on `*_*_*_*_*_*!` against a long key.
 */

type Token =
  | { readonly kind: 'Literal'; readonly char: string }
  | { readonly kind: 'One' }
  | { readonly kind: 'Star' }
  | { readonly kind: 'Globstar' };

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
      tokens.push({ kind: 'Globstar' });
      i += 1;
    } else if (char === '*') tokens.push({ kind: 'Star' });
    else if (char === '?') tokens.push({ kind: 'One' });
    else tokens.push({ kind: 'Literal', char });
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
      if (token.kind === 'Globstar' || (token.kind === 'Star' && char !== '/')) next[i] = 1;
      else if ((token.kind === 'One' && char !== '/') || (token.kind === 'Literal' && token.char === char))
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
    if (live[i] === 1 && (kind === 'Star' || kind === 'Globstar')) live[i + 1] = 1;
  }
}
