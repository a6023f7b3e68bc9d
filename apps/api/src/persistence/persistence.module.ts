import { Module } from '@nestjs/common';
import { DatabaseService } from './database.service.js';

/** The DataSource, the embedded database's lifecycle and the migrations. */
@Module({
  providers: [DatabaseService],
  exports: [DatabaseService],
})
export class PersistenceModule {}
