import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class LivenessDto {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}

export class ReadinessDto {
  @ApiProperty({ enum: ['ready', 'unavailable'] })
  status: 'ready' | 'unavailable';

  @ApiPropertyOptional({ enum: ['ok'] })
  database?: 'ok';

  @ApiPropertyOptional({ enum: ['ok'] })
  migrations?: 'ok';

  @ApiPropertyOptional({ description: 'Why the API is not ready (503 only).' })
  reason?: string;
}
