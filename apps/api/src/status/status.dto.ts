import { ApiProperty } from '@nestjs/swagger';

export class DatabaseStatusDto {
  @ApiProperty({ enum: ['embedded', 'external'] })
  kind: 'embedded' | 'external';

  @ApiProperty()
  ready: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'Why the database is not ready.' })
  reason: string | null;
}

export class InstanceDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  lastStartedAt: string;

  @ApiProperty({ description: 'How many times this installation has started.' })
  startCount: number;
}

export class StatusDto {
  @ApiProperty({ example: 'helios' })
  name: 'helios';

  @ApiProperty({ example: '0.1.0' })
  version: string;

  @ApiProperty({ type: DatabaseStatusDto })
  database: DatabaseStatusDto;

  @ApiProperty({ type: InstanceDto, nullable: true })
  instance: InstanceDto | null;

  @ApiProperty({ format: 'date-time' })
  startedAt: string;

  @ApiProperty()
  uptimeSeconds: number;
}
