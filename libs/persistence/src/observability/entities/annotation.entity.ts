/** `helios_annotations` (migration AnnotationsPrompts1765238400000): notes on traces and spans. */
import { EntitySchema } from 'typeorm';

export interface AnnotationRow {
  readonly id: string;
  readonly subjectId: string;
  readonly facet: string | null;
  readonly label: string;
  readonly authorKind: string;
  readonly authorId: string | null;
  readonly rating: number | null;
  readonly comment: string | null;
  readonly metadata: unknown;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const AnnotationEntity = new EntitySchema<AnnotationRow>({
  name: 'Annotation',
  tableName: 'helios_annotations',
  columns: {
    id: { type: 'uuid', primary: true, primaryKeyConstraintName: 'helios_annotations_pkey' },
    subjectId: { name: 'subject_id', type: 'uuid' },
    facet: { type: 'varchar', length: 255, nullable: true },
    label: { type: 'varchar', length: 255 },
    authorKind: { name: 'author_kind', type: 'varchar', length: 32 },
    authorId: { name: 'author_id', type: 'varchar', length: 255, nullable: true },
    rating: { type: 'smallint', nullable: true },
    comment: { type: 'text', nullable: true },
    metadata: { type: 'jsonb' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    updatedAt: { name: 'updated_at', type: 'timestamptz', default: () => 'now()' },
  },
  indices: [
    {
      name: 'helios_annotations_key_faceted',
      columns: ['subjectId', 'facet', 'label', 'authorId'],
      unique: true,
      where: '"facet" IS NOT NULL AND "author_id" IS NOT NULL',
    },
    {
      name: 'helios_annotations_key_unfaceted',
      columns: ['subjectId', 'label', 'authorId'],
      unique: true,
      where: '"facet" IS NULL AND "author_id" IS NOT NULL',
    },
    { name: 'helios_annotations_subject_created', columns: ['subjectId', 'createdAt'] },
    { name: 'helios_annotations_created_id', columns: ['createdAt', 'id'] },
    { name: 'helios_annotations_label', columns: ['label'] },
  ],
  checks: [
    {
      name: 'helios_annotations_author_kind_check',
      expression: `"author_kind" IN ('HUMAN', 'MODEL', 'SYSTEM')`,
    },
  ],
});
