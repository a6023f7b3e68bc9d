/**
 * Compiles a parsed SCIM filter to a parameterised SQL condition. Column names come only from the
 * allow-list the caller passes (never from the filter text), and every value is a `$n` parameter:
 * nothing the filter says is ever spliced into the SQL. Values are checked against their attribute's
 * type first, so a bad value is a filter error with its position rather than a database error.
 *
 * Semantics: `ne` and `not` treat an absent value (NULL) as "not equal" / "not matching", as SCIM
 * does, instead of SQL's unknown; `eq null` / `ne null` test for absence; `pr` means present and, for
 * text, non-empty; `co`, `sw`, `ew` are case-exact LIKE with `%`, `_` and `\` in the value escaped.
 */
import { ScimFilterError } from './errors.js';
import {
  parseScimFilter,
  type ScimCompareOperator,
  type ScimFilter,
  type ScimLiteral,
} from './scim-filter.js';

export type ScimAttributeType = 'uuid' | 'text' | 'integer' | 'timestamp';

export interface ScimAttribute {
  /** The column, a plain lower-case SQL identifier (checked when the allow-list is built). */
  readonly column: string;
  readonly type: ScimAttributeType;
}

/** Attribute names (matched case-insensitively, as SCIM says) to columns. */
export type ScimAttributes = ReadonlyMap<string, ScimAttribute>;

export interface CompiledFilter {
  /** A boolean SQL expression over the allowed columns, with `$n` placeholders. */
  readonly sql: string;
  readonly params: readonly unknown[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// ISO 8601 date or date-time with an optional offset (SCIM's dateTime is xsd:dateTime).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const SQL_OPERATORS: Readonly<Record<'eq' | 'gt' | 'ge' | 'lt' | 'le', string>> = {
  eq: '=',
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
};
const CASTS: Readonly<Record<ScimAttributeType, string>> = {
  uuid: '::uuid',
  text: '::text',
  integer: '::integer',
  timestamp: '::timestamptz',
};

/** Builds an allow-list; a column that is not a plain identifier is a programming error, refused here. */
export function scimAttributes(entries: Record<string, ScimAttribute>): ScimAttributes {
  const map = new Map<string, ScimAttribute>();
  for (const [name, attribute] of Object.entries(entries)) {
    if (!IDENTIFIER.test(attribute.column))
      throw new TypeError(`not a plain column name: ${attribute.column}`);
    map.set(name.toLowerCase(), attribute);
  }
  return map;
}

/** `%`, `_` and the escape character itself stand for themselves in a LIKE pattern after this. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

class Compiler {
  readonly params: unknown[] = [];

  constructor(
    private readonly attributes: ScimAttributes,
    private readonly firstParam: number,
  ) {}

  compile(filter: ScimFilter): string {
    switch (filter.kind) {
      case 'And':
        return `(${this.compile(filter.left)} AND ${this.compile(filter.right)})`;
      case 'Or':
        return `(${this.compile(filter.left)} OR ${this.compile(filter.right)})`;
      case 'Not':
        return `(NOT coalesce(${this.compile(filter.filter)}, false))`;
      case 'Present': {
        const { column, type } = this.attribute(filter.attribute, filter.position);
        return type === 'text'
          ? `("${column}" IS NOT NULL AND "${column}" <> '')`
          : `("${column}" IS NOT NULL)`;
      }
      case 'Compare':
        return this.compare(filter);
    }
  }

  private attribute(name: string, position: number): ScimAttribute {
    const attribute = this.attributes.get(name.toLowerCase());
    if (attribute === undefined) {
      const known = [...this.attributes.keys()].join(', ');
      throw new ScimFilterError(`unknown attribute ${JSON.stringify(name)} (filterable: ${known})`, position);
    }
    return attribute;
  }

  private param(value: unknown, type: ScimAttributeType): string {
    this.params.push(value);
    return `$${this.firstParam + this.params.length - 1}${CASTS[type]}`;
  }

  private compare(filter: Extract<ScimFilter, { kind: 'Compare' }>): string {
    const attribute = this.attribute(filter.attribute, filter.position);
    const column = `"${attribute.column}"`;
    const { operator, value, position } = filter;
    if (value === null) {
      if (operator === 'eq') return `(${column} IS NULL)`;
      if (operator === 'ne') return `(${column} IS NOT NULL)`;
      throw new ScimFilterError(`"${operator}" cannot compare with null`, position);
    }
    if (operator === 'co' || operator === 'sw' || operator === 'ew') return this.like(filter, attribute);
    const bound = this.param(this.checked(value, attribute.type, filter), attribute.type);
    if (operator === 'ne') return `(${column} IS DISTINCT FROM ${bound})`;
    return `(${column} ${SQL_OPERATORS[operator]} ${bound})`;
  }

  private like(filter: Extract<ScimFilter, { kind: 'Compare' }>, attribute: ScimAttribute): string {
    const { operator, value, position } = filter;
    if (typeof value !== 'string' || (attribute.type !== 'text' && attribute.type !== 'uuid')) {
      throw new ScimFilterError(`"${operator}" needs a text attribute and a string value`, position);
    }
    const escaped = escapeLike(value);
    const pattern = operator === 'co' ? `%${escaped}%` : operator === 'sw' ? `${escaped}%` : `%${escaped}`;
    const column = attribute.type === 'uuid' ? `"${attribute.column}"::text` : `"${attribute.column}"`;
    return `(${column} LIKE ${this.param(pattern, 'text')} ESCAPE '\\')`;
  }

  /** The value as the database will receive it, or a filter error naming the attribute's type. */
  private checked(
    value: Exclude<ScimLiteral, null>,
    type: ScimAttributeType,
    filter: { readonly attribute: string; readonly operator: ScimCompareOperator; readonly position: number },
  ): string | number {
    const fail = (expected: string): never => {
      throw new ScimFilterError(`${filter.attribute} ${filter.operator} needs ${expected}`, filter.position);
    };
    switch (type) {
      case 'text':
        return typeof value === 'string' ? value : fail('a string');
      case 'uuid':
        return typeof value === 'string' && UUID.test(value) ? value : fail('a UUID string');
      case 'integer':
        return typeof value === 'number' && Number.isSafeInteger(value) ? value : fail('an integer');
      case 'timestamp':
        return typeof value === 'string' && DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))
          ? value
          : fail('an ISO 8601 date-time string');
    }
  }
}

/**
 * A SQL condition for `filter` (text or already parsed) over `attributes`, its parameters numbered
 * from `firstParam`. Throws {@link ScimFilterError} for syntax errors, unknown attributes and
 * ill-typed values.
 */
export function compileScimFilter(
  filter: string | ScimFilter,
  attributes: ScimAttributes,
  firstParam = 1,
): CompiledFilter {
  const compiler = new Compiler(attributes, firstParam);
  const sql = compiler.compile(typeof filter === 'string' ? parseScimFilter(filter) : filter);
  return { sql, params: compiler.params };
}
