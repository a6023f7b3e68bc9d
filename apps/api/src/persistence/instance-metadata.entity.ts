import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one row describing this installation (table created by the first migration). */
@Entity({ name: 'instance_metadata' })
export class InstanceMetadataEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_started_at', type: 'timestamptz' })
  lastStartedAt: Date;

  /** bigint: pg returns it as a string. */
  @Column({ name: 'start_count', type: 'bigint' })
  startCount: string;

  @Column({ type: 'text' })
  version: string;
}
