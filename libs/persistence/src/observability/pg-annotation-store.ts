/**
 * Annotations on PostgreSQL (`helios_annotations`). `upsertAnnotation` is one INSERT … ON CONFLICT on
 * the partial unique index that matches the row (with or without a facet), so it is idempotent on
 * (subjectId, facet, label, authorId) even under concurrent writers; an annotation without an author
 * has no key and always inserts. The original `id` and `createdAt` survive an update.
 */
import { newId } from '@helios/core';
import { type DataSource } from 'typeorm';
import {
  type Annotation,
  type AnnotationInput,
  type AuthorKind,
  checkAnnotationInput,
  checkSubjectId,
  type Page,
  pageBounds,
  type Paginate,
} from './annotation.js';
import { PersistenceConfig } from './persistence-config.js';
import { compileScimFilter, scimAttributes } from './scim-sql.js';

interface AnnotationSqlRow {
  readonly id: string;
  readonly subject_id: string;
  readonly facet: string | null;
  readonly label: string;
  readonly author_kind: AuthorKind;
  readonly author_id: string | null;
  readonly rating: number | null;
  readonly comment: string | null;
  readonly metadata: Record<string, unknown>;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** The attributes a SCIM filter may name: the table's first-class columns (metadata is opaque). */
export const ANNOTATION_FILTER_ATTRIBUTES = scimAttributes({
  id: { column: 'id', type: 'uuid' },
  subjectId: { column: 'subject_id', type: 'uuid' },
  facet: { column: 'facet', type: 'text' },
  label: { column: 'label', type: 'text' },
  authorKind: { column: 'author_kind', type: 'text' },
  authorId: { column: 'author_id', type: 'text' },
  rating: { column: 'rating', type: 'integer' },
  comment: { column: 'comment', type: 'text' },
  createdAt: { column: 'created_at', type: 'timestamp' },
  updatedAt: { column: 'updated_at', type: 'timestamp' },
});

const COLUMNS = `"id", "subject_id", "facet", "label", "author_kind", "author_id", "rating", "comment",
  "metadata", "created_at", "updated_at"`;

/** The statements of one store, over its schema's `helios_annotations`. */
function statements(table: string) {
  const insert = `INSERT INTO ${table} (${COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, coalesce($10::timestamptz, now()),
    coalesce($10::timestamptz, now()))`;
  const updateOnConflict = `DO UPDATE SET "author_kind" = EXCLUDED."author_kind", "rating" = EXCLUDED."rating",
  "comment" = EXCLUDED."comment", "metadata" = EXCLUDED."metadata", "updated_at" = EXCLUDED."updated_at"`;
  return {
    /** One statement per shape of key: the conflict target must name the partial index the row falls in. */
    upsert: {
      faceted: `${insert} ON CONFLICT ("subject_id", "facet", "label", "author_id")
    WHERE "facet" IS NOT NULL AND "author_id" IS NOT NULL ${updateOnConflict} RETURNING *`,
      unfaceted: `${insert} ON CONFLICT ("subject_id", "label", "author_id")
    WHERE "facet" IS NULL AND "author_id" IS NOT NULL ${updateOnConflict} RETURNING *`,
      authorless: `${insert} RETURNING *`,
    },
    bySubjects: `SELECT ${COLUMNS} FROM ${table} WHERE "subject_id" = ANY($1::uuid[])
       ORDER BY "subject_id", "created_at", "id"`,
    list: (where: string) => `SELECT ${COLUMNS} FROM ${table} WHERE ${where}
       ORDER BY "created_at", "id" LIMIT $1 OFFSET $2`,
  };
}

function toAnnotation(row: AnnotationSqlRow): Annotation {
  return {
    id: row.id,
    subjectId: row.subject_id,
    facet: row.facet,
    label: row.label,
    authorKind: row.author_kind,
    authorId: row.author_id,
    rating: row.rating,
    comment: row.comment,
    metadata: row.metadata,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class PgAnnotationStore {
  private readonly sql: ReturnType<typeof statements>;

  /** `config` names the schema of `helios_annotations` (default `public`). */
  constructor(
    private readonly dataSource: DataSource,
    config: PersistenceConfig = PersistenceConfig.DEFAULT,
  ) {
    this.sql = statements(config.qualify('helios_annotations'));
  }

  private async rows(sql: string, params: readonly unknown[]): Promise<AnnotationSqlRow[]> {
    return (await this.dataSource.query(sql, [...params])) as AnnotationSqlRow[];
  }

  /** Inserts the annotation, or updates the one with the same key (kind, rating, comment, metadata). */
  async upsertAnnotation(input: AnnotationInput): Promise<Annotation> {
    checkAnnotationInput(input);
    const facet = input.facet ?? null;
    const authorId = input.authorId ?? null;
    const { upsert } = this.sql;
    const sql = authorId === null ? upsert.authorless : facet === null ? upsert.unfaceted : upsert.faceted;
    const rows = await this.rows(sql, [
      newId(),
      input.subjectId,
      facet,
      input.label,
      input.authorKind,
      authorId,
      input.rating ?? null,
      input.comment ?? null,
      JSON.stringify(input.metadata ?? {}),
      input.at ?? null,
    ]);
    const row = rows[0];
    if (row === undefined) throw new Error('upsertAnnotation: INSERT … RETURNING returned no row');
    return toAnnotation(row);
  }

  /** One subject's annotations, oldest first. */
  async findBySubject(subjectId: string): Promise<Annotation[]> {
    return this.findBySubjects([subjectId]);
  }

  /** Several subjects' annotations in one query, ordered by subject, then oldest first. */
  async findBySubjects(subjectIds: readonly string[]): Promise<Annotation[]> {
    if (subjectIds.length === 0) return [];
    subjectIds.forEach(checkSubjectId);
    const rows = await this.rows(this.sql.bySubjects, [[...new Set(subjectIds)]]);
    return rows.map(toAnnotation);
  }

  /**
   * A page of annotations, oldest first, optionally narrowed by a SCIM filter over
   * {@link ANNOTATION_FILTER_ATTRIBUTES} (a bad filter throws ScimFilterError, code INVALID_FILTER).
   */
  async list(paginate?: Paginate, scimFilter?: string): Promise<Page<Annotation>> {
    const { limit, offset } = pageBounds(paginate);
    const filter =
      scimFilter === undefined || scimFilter.trim() === ''
        ? { sql: 'true', params: [] }
        : compileScimFilter(scimFilter, ANNOTATION_FILTER_ATTRIBUTES, 3);
    const rows = await this.rows(this.sql.list(filter.sql), [limit + 1, offset, ...filter.params]);
    const hasMore = rows.length > limit;
    return {
      items: rows.slice(0, limit).map(toAnnotation),
      hasMore,
      nextOffset: hasMore ? offset + limit : undefined,
    };
  }
}
