/**
 * `instance_metadata` (migration InstanceMetadata1764460800000): the one row describing this Helios
 * installation. The API writes it at every start and shows it on the status page.
 */
import { EntitySchema } from 'typeorm';

export interface InstanceMetadataRow {
  readonly id: string;
  /** Always true: the unique constraint on it keeps the table at one row. */
  readonly singleton: boolean;
  readonly createdAt: Date;
  readonly lastStartedAt: Date;
  /** bigint: pg returns it as a string. */
  readonly startCount: string;
  readonly version: string;
}

export const InstanceMetadataEntity = new EntitySchema<InstanceMetadataRow>({
  name: 'InstanceMetadata',
  tableName: 'instance_metadata',
  columns: {
    id: {
      type: 'uuid',
      primary: true,
      generated: 'uuid',
      primaryKeyConstraintName: 'instance_metadata_pkey',
    },
    singleton: { type: 'boolean', default: true },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    lastStartedAt: { name: 'last_started_at', type: 'timestamptz', default: () => 'now()' },
    startCount: { name: 'start_count', type: 'bigint', default: 0 },
    version: { type: 'text' },
  },
  uniques: [{ name: 'instance_metadata_singleton', columns: ['singleton'] }],
  checks: [
    { name: 'instance_metadata_singleton_true', expression: '"singleton"' },
    { name: 'instance_metadata_start_count_check', expression: '"start_count" >= 0' },
  ],
});

export const INSTANCE_ENTITIES = [InstanceMetadataEntity] as const;
