/**
 * A SCIM filter parser (RFC 7644 §3.4.2.2) over plain attribute paths: comparisons (eq, ne, co, sw, ew,
 * gt, ge, lt, le), presence (pr), and, or, not (…), parentheses, and JSON-style literals (strings,
 * numbers, true, false, null). Operators and keywords are case-insensitive. Value paths (`a[b eq 1]`)
 * are not supported. Errors carry the offset where the filter went wrong. Turning a filter into SQL is
 * scim-sql.ts's job.
 */
import { ScimFilterError } from './errors.js';

export type ScimCompareOperator = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type ScimLiteral = string | number | boolean | null;

export type ScimFilter =
  | {
      readonly kind: 'Compare';
      readonly attribute: string;
      readonly operator: ScimCompareOperator;
      readonly value: ScimLiteral;
      /** Offset of the attribute path in the filter text (for the compiler's errors). */
      readonly position: number;
    }
  | { readonly kind: 'Present'; readonly attribute: string; readonly position: number }
  | { readonly kind: 'And'; readonly left: ScimFilter; readonly right: ScimFilter }
  | { readonly kind: 'Or'; readonly left: ScimFilter; readonly right: ScimFilter }
  | { readonly kind: 'Not'; readonly filter: ScimFilter };

/** Longer filters are refused before parsing: a filter is a query string, not a document. */
export const MAX_FILTER_LENGTH = 4096;
/** Nesting deeper than this (parentheses and `not`) is refused, so recursion stays shallow. */
export const MAX_FILTER_DEPTH = 32;

const COMPARE_OPERATORS: ReadonlySet<string> = new Set([
  'eq',
  'ne',
  'co',
  'sw',
  'ew',
  'gt',
  'ge',
  'lt',
  'le',
]);

type Token =
  | { readonly type: 'word'; readonly text: string; readonly position: number }
  | { readonly type: 'string'; readonly value: string; readonly position: number }
  | { readonly type: 'number'; readonly value: number; readonly position: number }
  | { readonly type: '(' | ')' | 'end'; readonly position: number };

// An attribute path or keyword: ATTRNAME *("." ATTRNAME), ATTRNAME = ALPHA *(ALPHA / DIGIT / "_" / "-").
const WORD = /[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z][A-Za-z0-9_-]*)*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// A JSON string with JSON's escapes (JSON.parse then refuses raw control characters).
const STRING = /"(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;

function describe(token: Token): string {
  switch (token.type) {
    case 'end':
      return 'the end of the filter';
    case 'word':
      return `"${token.text}"`;
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    default:
      return `"${token.type}"`;
  }
}

function match(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

function parseJsonString(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

/**
 * Reads tokens on demand, one ahead of the parser, so an error is reported where the parse went wrong
 * (`label"; drop …` fails at the quote, where an operator should be) rather than further on.
 */
class Lexer {
  #at = 0;
  #next: Token | undefined;

  constructor(private readonly text: string) {}

  peek(): Token {
    this.#next ??= this.read();
    return this.#next;
  }

  take(): Token {
    const token = this.peek();
    this.#next = undefined;
    return token;
  }

  private read(): Token {
    const text = this.text;
    while (/\s/.test(text[this.#at] ?? '')) this.#at += 1;
    const at = this.#at;
    const char = text[at];
    if (char === undefined) return { type: 'end', position: at };
    if (char === '(' || char === ')') {
      this.#at += 1;
      return { type: char, position: at };
    }
    if (char === '"') {
      const literal = match(STRING, text, at);
      const value = literal === undefined ? undefined : parseJsonString(literal);
      if (literal === undefined || value === undefined) {
        throw new ScimFilterError('unterminated or malformed string', at);
      }
      this.#at += literal.length;
      return { type: 'string', value, position: at };
    }
    if (char === '-' || (char >= '0' && char <= '9')) {
      const literal = match(NUMBER, text, at);
      // A number runs to a space or parenthesis: `01`, `1x` and `1.` are malformed, not two tokens.
      if (literal === undefined || /[\w.-]/.test(text[at + literal.length] ?? ' ')) {
        throw new ScimFilterError('malformed number', at);
      }
      this.#at += literal.length;
      return { type: 'number', value: Number(literal), position: at };
    }
    const word = match(WORD, text, at);
    if (word === undefined) throw new ScimFilterError(`unexpected character ${JSON.stringify(char)}`, at);
    this.#at += word.length;
    return { type: 'word', text: word, position: at };
  }
}

/** Recursive descent: or < and < not / group / attribute expression. */
class Parser {
  constructor(private readonly lexer: Lexer) {}

  parse(): ScimFilter {
    const filter = this.or(0);
    const next = this.peek();
    if (next.type !== 'end')
      throw new ScimFilterError(`expected "and", "or" or the end, found ${describe(next)}`, next.position);
    return filter;
  }

  private peek(): Token {
    return this.lexer.peek();
  }

  private take(): Token {
    return this.lexer.take();
  }

  private keyword(token: Token, word: string): boolean {
    return token.type === 'word' && token.text.toLowerCase() === word;
  }

  private or(depth: number): ScimFilter {
    let left = this.and(depth);
    while (this.keyword(this.peek(), 'or')) {
      this.take();
      left = { kind: 'Or', left, right: this.and(depth) };
    }
    return left;
  }

  private and(depth: number): ScimFilter {
    let left = this.unary(depth);
    while (this.keyword(this.peek(), 'and')) {
      this.take();
      left = { kind: 'And', left, right: this.unary(depth) };
    }
    return left;
  }

  private unary(depth: number): ScimFilter {
    const token = this.peek();
    if (depth >= MAX_FILTER_DEPTH)
      throw new ScimFilterError(`nested deeper than ${MAX_FILTER_DEPTH}`, token.position);
    if (this.keyword(token, 'not')) {
      this.take();
      this.expect('(');
      const filter = this.or(depth + 1);
      this.expect(')');
      return { kind: 'Not', filter };
    }
    if (token.type === '(') {
      this.take();
      const filter = this.or(depth + 1);
      this.expect(')');
      return filter;
    }
    return this.attributeExpression();
  }

  private expect(type: '(' | ')'): void {
    const token = this.take();
    if (token.type !== type)
      throw new ScimFilterError(`expected "${type}", found ${describe(token)}`, token.position);
  }

  private attributeExpression(): ScimFilter {
    const path = this.take();
    if (path.type !== 'word' || ['and', 'or', 'not'].includes(path.text.toLowerCase())) {
      throw new ScimFilterError(`expected an attribute, found ${describe(path)}`, path.position);
    }
    const operator = this.take();
    const op = operator.type === 'word' ? operator.text.toLowerCase() : '';
    if (op === 'pr') return { kind: 'Present', attribute: path.text, position: path.position };
    if (!COMPARE_OPERATORS.has(op)) {
      throw new ScimFilterError(
        `expected an operator after ${path.text}, found ${describe(operator)}`,
        operator.position,
      );
    }
    return {
      kind: 'Compare',
      attribute: path.text,
      operator: op as ScimCompareOperator,
      value: this.literal(),
      position: path.position,
    };
  }

  private literal(): ScimLiteral {
    const token = this.take();
    if (token.type === 'string' || token.type === 'number') return token.value;
    if (token.type === 'word') {
      const word = token.text.toLowerCase();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
    }
    throw new ScimFilterError(
      `expected a value (string, number, true, false or null), found ${describe(token)}`,
      token.position,
    );
  }
}

/** Parses a SCIM filter; throws {@link ScimFilterError} (code INVALID_FILTER) with the offending offset. */
export function parseScimFilter(text: string): ScimFilter {
  if (text.length > MAX_FILTER_LENGTH) {
    throw new ScimFilterError(`longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH);
  }
  if (text.trim() === '') throw new ScimFilterError('the filter is empty', 0);
  return new Parser(new Lexer(text)).parse();
}
