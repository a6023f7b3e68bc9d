/**
 * Rewrites a policy regex, written in JavaScript RegExp syntax (no flags), into RE2 syntax with the
 * same meaning, or says why it cannot. Every place where the two dialects read the same text
 * differently is spelled out explicitly rather than left to RE2:
 * - `.` excludes `\n`, `\r`, U+2028 and U+2029 (RE2: only `\n`); `\s`/`\S` are JavaScript's
 *   whitespace set (RE2's `\s` lacks `\v` and the Unicode spaces); `[\b]` is a backspace.
 * - `\uXXXX`, `\xXX`, `\cX`, `\0`, `\t`… become `\x{…}`; every character inside a class is written as
 *   `\x{…}`, so RE2's `[[:alpha:]]` and escape rules never apply.
 * - Groups become non-capturing (only a yes/no answer is needed).
 * Refused: backreferences and lookaround (no linear-time engine can run them), `\1`-style octal
 * escapes, escapes JavaScript reads as a plain letter (`\A`, `\z`, `\p{…}` without the `u` flag),
 * `\u{…}` (without the `u` flag it means 41 `u`s, not a code point) and lone surrogates.
 * `^`, `$`, `\b`, `\B`, `\d`, `\w` and the quantifiers read the same in both without flags.
 * Matching itself differs in one documented way: RE2 steps over code points, so `.` or `[^a]`
 * consumes a whole astral character where JavaScript (no `u` flag) consumes half of one.
 */

export class RegexTranslationError extends Error {}

/** JavaScript's `\s`: WhiteSpace and LineTerminator code points. */
const JS_SPACE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

const hex = (code: number): string => `\\x{${code.toString(16)}}`;
const rangeText = ([low, high]: readonly [number, number]): string =>
  low === high ? hex(low) : `${hex(low)}-${hex(high)}`;
const SPACE_CLASS_BODY = JS_SPACE_RANGES.map(rangeText).join('');
const NOT_SPACE_CLASS_BODY = complement(JS_SPACE_RANGES).map(rangeText).join('');
const LINE_TERMINATORS = [0x0a, 0x0d, 0x2028, 0x2029].map(hex).join('');

function complement(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) out.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** A class member: one code point, or a set written as RE2 class-body text. */
type ClassAtom = { readonly code: number } | { readonly set: string };

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13 };
const CLASS_SET_ESCAPES: Readonly<Record<string, string>> = {
  d: '\\d',
  D: '\\D',
  w: '\\w',
  W: '\\W',
  s: SPACE_CLASS_BODY,
  S: NOT_SPACE_CLASS_BODY,
};

export function translateRegex(source: string): string {
  return new Translator(source).translate();
}

class Translator {
  #index = 0;
  #out = '';

  constructor(private readonly source: string) {}

  translate(): string {
    while (this.#index < this.source.length) this.step();
    return this.#out;
  }

  private step(): void {
    const char = this.source[this.#index] as string;
    switch (char) {
      case '\\':
        this.#out += this.atomEscape();
        return;
      case '[':
        this.#out += this.characterClass();
        return;
      case '.':
        this.#out += `[^${LINE_TERMINATORS}]`;
        this.#index += 1;
        return;
      case '(':
        this.#out += this.groupOpening();
        return;
      case '{':
        this.#out += this.braceQuantifierOrLiteral();
        return;
      case '}':
      case ']':
        // Annex B: a lone closing brace or bracket is a literal.
        this.#out += `\\${char}`;
        this.#index += 1;
        return;
      case ')':
      case '|':
      case '*':
      case '+':
      case '?':
      case '^':
      case '$':
        this.#out += char;
        this.#index += 1;
        return;
      default:
        this.#out += this.literalCodePoint();
    }
  }

  /** A literal outside a class; surrogate pairs stay one code point. */
  private literalCodePoint(): string {
    return hex(this.classCodePoint());
  }

  private groupOpening(): string {
    const rest = this.source.slice(this.#index);
    if (/^\(\?<?[=!]/.test(rest))
      throw new RegexTranslationError('lookahead and lookbehind are not supported');
    const named = /^\(\?<[^>]+>/.exec(rest);
    if (named !== null) {
      this.#index += named[0].length;
      return '(?:';
    }
    if (rest.startsWith('(?:')) {
      this.#index += 3;
      return '(?:';
    }
    if (rest.startsWith('(?')) throw new RegexTranslationError('this group syntax is not supported');
    this.#index += 1;
    return '(?:';
  }

  private braceQuantifierOrLiteral(): string {
    const quantifier = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.#index));
    if (quantifier === null) {
      this.#index += 1;
      return '\\{';
    }
    this.#index += quantifier[0].length;
    return quantifier[0];
  }

  private atomEscape(): string {
    const atom = this.escape(false);
    return 'code' in atom ? hex(atom.code) : atom.set;
  }

  /**
   * One escape starting at `\`. Inside a class, sets come back as class-body text; outside, as a
   * whole atom.
   */
  private escape(inClass: boolean): ClassAtom | { readonly set: string } {
    const next = this.source[this.#index + 1];
    if (next === undefined) throw new RegexTranslationError('the pattern ends with a lone "\\"');
    this.#index += 2;
    if (next in CLASS_SET_ESCAPES) {
      const body = CLASS_SET_ESCAPES[next] as string;
      if (inClass || next === 'd' || next === 'D' || next === 'w' || next === 'W') return { set: body };
      return { set: `[${body}]` };
    }
    if (next in SIMPLE_ESCAPES) return { code: SIMPLE_ESCAPES[next] as number };
    if (next === 'b' || next === 'B') {
      if (inClass && next === 'b') return { code: 8 };
      if (inClass) throw new RegexTranslationError('"\\B" inside a class means the letter B; write "B"');
      return { set: `\\${next}` };
    }
    if (next === '0' && !/[0-9]/.test(this.source[this.#index] ?? '')) return { code: 0 };
    if (/[0-9]/.test(next))
      throw new RegexTranslationError(
        `"\\${next}": backreferences (and legacy octal escapes) are not supported`,
      );
    if (next === 'k') throw new RegexTranslationError('"\\k" named backreferences are not supported');
    if (next === 'x') return { code: this.hexDigits(2, '\\x') };
    if (next === 'u') {
      if (this.source[this.#index] === '{')
        throw new RegexTranslationError('"\\u{…}" needs the u flag; write "\\uXXXX" (one UTF-16 unit)');
      const code = this.hexDigits(4, '\\u');
      if (code >= 0xd800 && code <= 0xdfff)
        throw new RegexTranslationError('surrogate escapes cannot be matched by a code-point engine');
      return { code };
    }
    if (next === 'c') {
      const letter = this.source[this.#index];
      if (letter === undefined || !/[A-Za-z]/.test(letter))
        throw new RegexTranslationError('"\\c" must be followed by a letter');
      this.#index += 1;
      return { code: letter.charCodeAt(0) % 32 };
    }
    if (/[\p{L}\p{N}_]/u.test(next))
      throw new RegexTranslationError(`"\\${next}" is not a JavaScript escape (it would match "${next}")`);
    // Identity escape of punctuation (`\.`, `\/`, `\-`…): the character itself.
    this.#index -= 1;
    const code = this.source.codePointAt(this.#index) as number;
    this.#index += code > 0xffff ? 2 : 1;
    return { code };
  }

  private hexDigits(count: number, escape: string): number {
    const digits = this.source.slice(this.#index, this.#index + count);
    if (!new RegExp(`^[0-9a-fA-F]{${count}}$`).test(digits))
      throw new RegexTranslationError(`"${escape}" must be followed by ${count} hex digits`);
    this.#index += count;
    return Number.parseInt(digits, 16);
  }

  private characterClass(): string {
    this.#index += 1;
    const negated = this.source[this.#index] === '^';
    if (negated) this.#index += 1;
    const atoms: Array<ClassAtom & { readonly bareDash?: true }> = [];
    while (this.source[this.#index] !== ']') {
      if (this.#index >= this.source.length) throw new RegexTranslationError('a class is never closed');
      if (this.source[this.#index] === '-') {
        atoms.push({ code: 0x2d, bareDash: true });
        this.#index += 1;
      } else
        atoms.push(this.source[this.#index] === '\\' ? this.escape(true) : { code: this.classCodePoint() });
    }
    this.#index += 1;
    let body = '';
    for (let i = 0; i < atoms.length; i += 1) {
      const low = atoms[i] as ClassAtom;
      const dash = atoms[i + 1];
      const high = atoms[i + 2];
      // `a-z` is a range only between two single characters (Annex B: `[\w-z]` has a literal dash).
      if ('code' in low && dash?.bareDash === true && high !== undefined && 'code' in high) {
        body += rangeText([low.code, high.code]);
        i += 2;
      } else body += 'code' in low ? hex(low.code) : low.set;
    }
    // `[]` matches nothing and `[^]` anything; RE2 has neither spelling.
    if (body === '') return negated ? '[\\x{0}-\\x{10ffff}]' : '[^\\x{0}-\\x{10ffff}]';
    return `[${negated ? '^' : ''}${body}]`;
  }

  private classCodePoint(): number {
    const code = this.source.codePointAt(this.#index) as number;
    if (code >= 0xd800 && code <= 0xdfff)
      throw new RegexTranslationError('a lone surrogate cannot be matched by a code-point engine');
    this.#index += code > 0xffff ? 2 : 1;
    return code;
  }
}
