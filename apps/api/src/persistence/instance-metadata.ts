import { type DataSource } from 'typeorm';
import { InstanceMetadataEntity } from '@helios/persistence';

export interface InstanceInfo {
  readonly id: string;
  readonly createdAt: Date;
  readonly lastStartedAt: Date;
  readonly startCount: number;
  readonly version: string;
}

/** Counts this start in the single instance row, creating it on the first start. */
export async function recordStart(dataSource: DataSource, version: string): Promise<InstanceInfo> {
  await dataSource.query(
    `INSERT INTO "instance_metadata" ("version", "start_count") VALUES ($1, 1)
     ON CONFLICT ("singleton") DO UPDATE
       SET "start_count" = "instance_metadata"."start_count" + 1, "last_started_at" = now(), "version" = EXCLUDED."version"`,
    [version],
  );
  const info = await readInstance(dataSource);
  if (!info) throw new Error('instance_metadata row missing right after it was written');
  return info;
}

export async function readInstance(dataSource: DataSource): Promise<InstanceInfo | undefined> {
  const row = await dataSource.getRepository(InstanceMetadataEntity).findOne({ where: {} });
  if (!row) return undefined;
  return {
    id: row.id,
    createdAt: row.createdAt,
    lastStartedAt: row.lastStartedAt,
    startCount: Number(row.startCount),
    version: row.version,
  };
}
