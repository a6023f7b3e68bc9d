/**
 * Glob → automaton tree, reproducing what picomatch 4 (`dot: true`) meant for the same text, so moving
 * off picomatch changes no policy's meaning (glob.test.ts checks this against picomatch itself).
 * Supported: literals (`\` escapes punctuation), `?`, `*`, `**`, `[...]`/`[^...]` with ranges,
 * `{a,b}` (nested), `@(a|b)`, `?(a|b)` and a leading `!` negating the whole glob, with picomatch's
 * quirks: wildcards that open a path segment never match a `.` or `..` segment, a glob ending in a
 * star or class also matches one trailing `/`, a class of plain characters also matches its own
 * text (`[ab]` matches "[ab]"), a brace without a comma is literal (`{a}`).
 * Refused at load, each with its reason (they were unsupported, ambiguous or meant something odd):
 * `!(...)`, `+(...)`, `*(...)`, `[!...]` (picomatch: a class containing `!`), POSIX classes, `{1..3}`,
 * quotes, bare `(`/`)`/`|`, `,` inside an extglob, three or more stars after text, `**` next to an
 * extglob and `?` right after one.
 */
import {
  GLOBSTAR,
  MAYBE_SLASH,
  STAR,
  alt,
  assert,
  literal,
  notDotSegment,
  notDotSegmentNorSlashDotSegment,
  notEmptyNorDotRest,
  notSlash,
  oneCharAhead,
  optional,
  seq,
  unit,
} from './glob-assertions.js';
import { type NameNode } from './name-automaton.js';

export interface ParsedGlob {
  readonly root: NameNode;
  /** A leading `!`: the glob matches what the rest does not (and, as in picomatch, no line breaks). */
  readonly negated: boolean;
}

export class GlobSyntaxError extends Error {}

/** picomatch's token kinds that decide where its dot-segment guards go. */
type Previous = 'start' | 'slash' | 'dot' | 'star' | 'bracket' | 'paren' | 'other';

interface Context {
  /** Closing characters of the enclosing braces/extglobs, innermost last. */
  readonly closers: string[];
}

const SLASH = literal('/');
const AT_START = assert((_, index) => index === 0);
const AT_END = assert((name, index) => index === name.length);
const REGEX_SPECIAL = /[-*+?.^${}(|)[\]]/;

export function parseGlob(pattern: string): ParsedGlob {
  let text = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  // picomatch's parser skips its guards for globs without these (plain text, `*` and `?`).
  const simple = !/^[*!]|[/()[\]{}"]/.test(text);
  let bangs = 0;
  while (text[bangs] === '!' && text[bangs + 1] !== '(') bangs += 1;
  text = text.slice(bangs);
  // picomatch also drops `./` after the `!`s, and repeated `./`.
  while (text.startsWith('./')) text = text.slice(2);
  if (text === '') throw new GlobSyntaxError('glob has nothing after its leading "!"');
  return { root: new Parser(text, simple).parseTop(), negated: bangs % 2 === 1 };
}

class Parser {
  #index = 0;

  constructor(
    private readonly text: string,
    private readonly simple: boolean,
  ) {}

  parseTop(): NameNode {
    const simple = this.simple;
    const { node, previous } = this.parseSequence({ closers: [] }, simple);
    // picomatch lets a glob ending in a star or a bracket also match one trailing `/`.
    return !simple && (previous === 'star' || previous === 'bracket') ? seq(node, MAYBE_SLASH) : node;
  }

  /** Items up to (not including) a `,`/`|`/closer of the innermost group, or the end. */
  private parseSequence(
    context: Context,
    simple: boolean,
    startPrevious: Previous = 'start',
  ): { node: NameNode; previous: Previous } {
    const items: NameNode[] = [];
    let previous: Previous = startPrevious;
    let beforeSlash: Previous | undefined;
    const inGroup = context.closers.length > 0;
    while (this.#index < this.text.length) {
      const char = this.text[this.#index] as string;
      const next = this.text[this.#index + 1];
      if (inGroup && (char === ',' || char === '|' || char === context.closers.at(-1))) break;
      if (char === '\\') {
        if (next === undefined) throw new GlobSyntaxError('glob ends with a lone "\\"');
        if (/[\p{L}\p{N}]/u.test(next))
          throw new GlobSyntaxError(`"\\${next}" is not an escape; only punctuation may be escaped`);
        items.push(literal(next));
        this.#index += 2;
        previous = 'other';
      } else if (char === '*') {
        const run = /^\*+/.exec(this.text.slice(this.#index))?.[0].length ?? 1;
        if (run > 2) throw new GlobSyntaxError('three or more stars in a row mean nothing more than "**"');
        if (this.text[this.#index + run] === '(')
          throw new GlobSyntaxError('"*(...)" (repeated extglob) is not supported');
        const stars = this.parseStars(run, { previous, beforeSlash, inGroup, simple });
        // A `/**` globstar takes over the slash before it (so it can also match nothing at all).
        if (stars.replacesSlash) items.pop();
        items.push(stars.node);
        if (stars.endsWithSlash) beforeSlash = 'star';
        previous = stars.endsWithSlash ? 'slash' : 'star';
      } else if ((char === '?' || char === '@') && next === '(') {
        items.push(this.parseExtglob(char, items.length === 0 && !inGroup));
        previous = 'paren';
      } else if ((char === '+' || char === '!') && next === '(') {
        throw new GlobSyntaxError(`"${char}(...)" extglobs are not supported`);
      } else if (char === '?' && previous === 'paren') {
        throw new GlobSyntaxError(
          '"?" right after an extglob is ambiguous (picomatch read it as "optional")',
        );
      } else if (char === '?') {
        items.push(unit(notSlash));
        this.#index += 1;
        previous = 'other';
      } else if (char === '[') {
        items.push(this.parseBracket());
        previous = 'bracket';
      } else if (char === '{') {
        const brace = this.parseBrace();
        items.push(brace.node);
        previous = brace.previous;
      } else if (char === '(' || char === ')' || char === '|') {
        throw new GlobSyntaxError(`"${char}" outside an extglob must be escaped`);
      } else if (char === '"') {
        throw new GlobSyntaxError('quotes in globs are not supported; escape the characters instead');
      } else {
        // A `.` opening a segment, or any `.` inside a group, is picomatch's "dot" token.
        const dotToken = char === '.' && !simple && (inGroup || previous === 'start' || previous === 'slash');
        items.push(literal(char));
        this.#index += 1;
        if (char === '/') beforeSlash = previous;
        previous = char === '/' ? 'slash' : dotToken ? 'dot' : 'other';
      }
    }
    return { node: seq(...items), previous };
  }

  private parseStars(
    run: number,
    at: { previous: Previous; beforeSlash: Previous | undefined; inGroup: boolean; simple: boolean },
  ): { node: NameNode; replacesSlash: boolean; endsWithSlash: boolean } {
    const { previous, inGroup } = at;
    this.#index += run;
    const plain = (node: NameNode, endsWithSlash = false) => ({ node, replacesSlash: false, endsWithSlash });
    if (at.simple) return plain(STAR);
    const segmentStart = previous === 'start' || previous === 'slash';
    const guards: NameNode[] = [];
    // picomatch asks for a character ahead only of a single star (its `*` followed by `*` skips it).
    if (previous === 'dot') guards.push(assert(notEmptyNorDotRest));
    else if (!inGroup && segmentStart) guards.push(assert(notDotSegment));
    if (run === 1 && (previous === 'dot' || (!inGroup && segmentStart))) guards.push(assert(oneCharAhead));
    const extglobAfter = this.text[this.#index + 1] === '(' && /[@?+*!]/.test(this.text[this.#index] ?? '');
    if (run === 2 && (previous === 'paren' || extglobAfter))
      throw new GlobSyntaxError('"**" next to an extglob is ambiguous; write "*" or a "/**/" segment');
    if (run === 1 || !segmentStart) return plain(seq(...guards, STAR));

    // Consecutive `/**` segments collapse into one.
    while (/^\/\*\*(\/|$)/.test(this.text.slice(this.#index))) this.#index += 3;
    const following = this.text[this.#index];
    const slashNotFirst = previous === 'slash' && at.beforeSlash !== 'start';
    if (previous === 'start' && !inGroup && following === undefined)
      return plain(seq(assert(notDotSegmentNorSlashDotSegment), GLOBSTAR));
    if (slashNotFirst && at.beforeSlash !== 'star' && following === undefined) {
      // A trailing `/**`: any descendants, or the parent itself.
      return {
        node: alt(seq(SLASH, ...guards, GLOBSTAR), AT_END),
        replacesSlash: true,
        endsWithSlash: false,
      };
    }
    if (slashNotFirst && following === '/') {
      this.#index += 1;
      const more = this.#index < this.text.length;
      const node = alt(seq(SLASH, ...guards, GLOBSTAR, SLASH), SLASH, ...(more ? [AT_END] : []));
      return { node, replacesSlash: true, endsWithSlash: true };
    }
    if (previous === 'start' && !inGroup && following === '/') {
      this.#index += 1;
      // `**/x`: from the start, after a slash, or after anything and a slash.
      return plain(alt(AT_START, SLASH, seq(GLOBSTAR, SLASH)), true);
    }
    // Elsewhere picomatch keeps a globstar only where nothing but a slash, a group's end or an
    // alternative's end follows; before text it is a plain star.
    const keepsGlobstar =
      following === undefined ||
      following === '/' ||
      following === '{' ||
      (inGroup && (following === ',' || following === '|' || following === '}' || following === ')'));
    return plain(seq(...guards, keepsGlobstar ? GLOBSTAR : STAR));
  }

  /** `@(a|b)` once, `?(a|b)` at most once. */
  private parseExtglob(kind: '?' | '@', atStart: boolean): NameNode {
    this.#index += 2;
    const options = this.parseOptions(')', '|');
    const body = alt(...options);
    // picomatch requires a character ahead for an optional extglob opening the glob.
    return kind === '@' ? body : seq(...(atStart ? [assert(oneCharAhead)] : []), optional(body));
  }

  private parseBrace(): { node: NameNode; previous: Previous } {
    const close = this.findBraceClose();
    if (close === -1) throw new GlobSyntaxError('"{" is never closed');
    const inside = this.text.slice(this.#index + 1, close);
    if (inside.includes('..') && !/[,{]/.test(inside))
      throw new GlobSyntaxError('"{a..b}" ranges are not supported; list the alternatives');
    this.#index += 1;
    const options = this.parseOptions('}', ',');
    if (options.length === 1) {
      // picomatch reads a brace without a comma as literal braces around its content.
      return { node: seq(literal('{'), options[0] as NameNode, literal('}')), previous: 'other' };
    }
    return { node: alt(...options), previous: 'other' };
  }

  /** Parses `option (separator option)* closer`, the opener already consumed. */
  private parseOptions(closer: string, separator: string): NameNode[] {
    const options: NameNode[] = [];
    for (;;) {
      const { node } = this.parseSequence({ closers: [closer] }, false, 'start');
      options.push(node);
      const char = this.text[this.#index];
      if (char === closer) {
        this.#index += 1;
        return options;
      }
      if (char === separator) {
        this.#index += 1;
        continue;
      }
      if (char === undefined) throw new GlobSyntaxError(`"${closer === ')' ? '(' : '{'}" is never closed`);
      throw new GlobSyntaxError(`"${char}" is not allowed here; escape it`);
    }
  }

  private findBraceClose(): number {
    let depth = 0;
    for (let i = this.#index; i < this.text.length; i += 1) {
      const char = this.text[i];
      if (char === '\\') i += 1;
      else if (char === '{') depth += 1;
      else if (char === '}') {
        depth -= 1;
        if (depth === 0) return i;
      }
    }
    return -1;
  }

  /** `[...]` / `[^...]`; a class of plain characters also matches its own text, as in picomatch. */
  private parseBracket(): NameNode {
    const start = this.#index;
    let i = start + 1;
    const negated = this.text[i] === '^';
    if (this.text[i] === '!')
      throw new GlobSyntaxError(
        '"[!...]" is ambiguous (picomatch read it as a class containing "!"); write "[^...]"',
      );
    if (negated) i += 1;
    const ranges: Array<[number, number]> = [];
    const members: number[] = [];
    let first = true;
    for (;;) {
      const char = this.text[i];
      if (char === undefined) throw new GlobSyntaxError('"[" is never closed; escape it as "\\["');
      if (char === ']' && !first) break;
      if (char === '[') throw new GlobSyntaxError('"[" inside a class (POSIX classes) is not supported');
      let code: number;
      if (char === '\\') {
        const escaped = this.text[i + 1];
        if (escaped === undefined) throw new GlobSyntaxError('"[" is never closed');
        code = escaped.charCodeAt(0);
        i += 2;
      } else {
        code = char.charCodeAt(0);
        i += 1;
      }
      first = false;
      if (this.text[i] === '-' && this.text[i + 1] !== ']' && this.text[i + 1] !== undefined) {
        const high = this.text[i + 1] === '\\' ? this.text[i + 2] : this.text[i + 1];
        if (high === undefined) throw new GlobSyntaxError('"[" is never closed');
        const highCode = high.charCodeAt(0);
        if (highCode < code) throw new GlobSyntaxError(`range "${char}-${high}" is out of order`);
        ranges.push([code, highCode]);
        i += this.text[i + 1] === '\\' ? 3 : 2;
      } else {
        members.push(code);
      }
    }
    const body = this.text.slice(start + 1, i);
    this.#index = i + 1;
    const inClass = (unitCode: number): boolean =>
      members.includes(unitCode) || ranges.some(([low, high]) => unitCode >= low && unitCode <= high);
    const classNode = unit((name, index) => {
      const unitCode = name.charCodeAt(index);
      return negated ? unitCode !== 0x2f && !inClass(unitCode) : inClass(unitCode);
    });
    return REGEX_SPECIAL.test(body) ? classNode : alt(literal(`[${body}]`), classNode);
  }
}
