/**
 * `helios_prompts` and `helios_prompt_labels` (migration AnnotationsPrompts1765238400000): immutable
 * prompt versions and the movable labels that point at them.
 */
import { EntitySchema } from 'typeorm';

export interface PromptRow {
  readonly id: string;
  readonly name: string;
  readonly version: number;
  readonly content: string;
  readonly variables: unknown;
  readonly metadata: unknown;
  readonly createdAt: Date;
}

export interface PromptLabelRow {
  readonly name: string;
  readonly label: string;
  readonly version: number;
  readonly updatedAt: Date;
}

export const PromptEntity = new EntitySchema<PromptRow>({
  name: 'Prompt',
  tableName: 'helios_prompts',
  columns: {
    id: { type: 'uuid', primary: true, primaryKeyConstraintName: 'helios_prompts_pkey' },
    name: { type: 'varchar', length: 255 },
    version: { type: 'integer' },
    content: { type: 'text' },
    variables: { type: 'jsonb' },
    metadata: { type: 'jsonb' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
  },
  uniques: [{ name: 'helios_prompts_name_version', columns: ['name', 'version'] }],
  checks: [{ name: 'helios_prompts_version_check', expression: '"version" >= 1' }],
});

export const PromptLabelEntity = new EntitySchema<PromptLabelRow>({
  name: 'PromptLabel',
  tableName: 'helios_prompt_labels',
  columns: {
    name: {
      type: 'varchar',
      length: 255,
      primary: true,
      primaryKeyConstraintName: 'helios_prompt_labels_pkey',
    },
    label: {
      type: 'varchar',
      length: 255,
      primary: true,
      primaryKeyConstraintName: 'helios_prompt_labels_pkey',
    },
    version: { type: 'integer' },
    updatedAt: { name: 'updated_at', type: 'timestamptz', default: () => 'now()' },
  },
  foreignKeys: [
    {
      name: 'helios_prompt_labels_prompt_fkey',
      target: PromptEntity,
      columnNames: ['name', 'version'],
      referencedColumnNames: ['name', 'version'],
    },
  ],
  indices: [{ name: 'helios_prompt_labels_version', columns: ['name', 'version'] }],
});
