/**
 * Annotations: structured notes on a trace or span (`subjectId`). `facet` addresses a named
 * sub-coordinate of the subject (one rating per evaluation dimension, say); `facet`, `label` and
 * `metadata` are opaque: stored and returned as given.
 */
import { InvalidArgumentError } from '@helios/core';

export const AUTHOR_KINDS = ['HUMAN', 'MODEL', 'SYSTEM'] as const;
export type AuthorKind = (typeof AUTHOR_KINDS)[number];

export interface Annotation {
  readonly id: string;
  /** The annotated trace or span (a UUID; no foreign key: the subject may live in another store). */
  readonly subjectId: string;
  readonly facet: string | null;
  readonly label: string;
  readonly authorKind: AuthorKind;
  readonly authorId: string | null;
  readonly rating: number | null;
  readonly comment: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What `upsertAnnotation` takes: the key (subjectId, facet, label, authorId) and the rest. */
export interface AnnotationInput {
  readonly subjectId: string;
  readonly facet?: string | null;
  readonly label: string;
  readonly authorKind: AuthorKind;
  readonly authorId?: string | null;
  /** A small integer (stored as smallint). */
  readonly rating?: number | null;
  readonly comment?: string | null;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** When the annotation was made; the database's now() when absent. */
  readonly at?: Date;
}

/** Offset paging, oldest `createdAt` first. `limit` defaults to 50, at most {@link MAX_PAGE_SIZE}. */
export interface Paginate {
  readonly limit?: number;
  readonly offset?: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  /** Whether rows follow this page. */
  readonly hasMore: boolean;
  /** The offset of the next page, when there is one. */
  readonly nextOffset: number | undefined;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
const MAX_TEXT = 255;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function checkText(field: string, value: string | null | undefined, required: boolean): void {
  if (value === null || value === undefined) {
    if (required) throw new InvalidArgumentError(`annotation ${field} is required`);
    return;
  }
  // facet and authorId are opaque: an empty one is a value (distinct from none); a label is required.
  if (required && value.trim() === '')
    throw new InvalidArgumentError(`annotation ${field} must not be blank`);
  if (value.length > MAX_TEXT)
    throw new InvalidArgumentError(`annotation ${field} exceeds ${MAX_TEXT} characters`);
}

/** Refuses what the table would refuse, with an INVALID_ARGUMENT naming the field instead of a SQL error. */
export function checkAnnotationInput(input: AnnotationInput): void {
  checkSubjectId(input.subjectId);
  checkText('label', input.label, true);
  checkText('facet', input.facet, false);
  checkText('authorId', input.authorId, false);
  if (!(AUTHOR_KINDS as readonly string[]).includes(input.authorKind)) {
    throw new InvalidArgumentError(`annotation authorKind must be one of ${AUTHOR_KINDS.join(', ')}`);
  }
  const rating = input.rating;
  if (
    rating !== null &&
    rating !== undefined &&
    !(Number.isInteger(rating) && rating >= -32768 && rating <= 32767)
  ) {
    throw new InvalidArgumentError('annotation rating must be an integer between -32768 and 32767');
  }
}

export function checkSubjectId(subjectId: string): void {
  if (!UUID.test(subjectId))
    throw new InvalidArgumentError(`annotation subjectId must be a UUID: ${subjectId}`);
}

/** The page's bounds, checked: a negative offset or a limit outside 1..MAX_PAGE_SIZE is refused. */
export function pageBounds(paginate: Paginate = {}): { limit: number; offset: number } {
  const limit = paginate.limit ?? DEFAULT_PAGE_SIZE;
  const offset = paginate.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new InvalidArgumentError(`page limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  if (!Number.isInteger(offset) || offset < 0)
    throw new InvalidArgumentError('page offset must be a whole number');
  return { limit, offset };
}
