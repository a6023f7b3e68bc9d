import { Module } from '@nestjs/common';

/**
 * The dashboard's admin API: traces, annotations, approvals, budgets and policy editing.
 * Registered in AppModule now so the issue that fills it adds providers and controllers here, not
 * wiring; it has none yet.
 */
@Module({})
export class AdminModule {}
