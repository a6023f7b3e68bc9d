import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { HeliosExceptionFilter } from './helios-exception.filter.js';

/** Registers the global filter that answers library errors through the one error table. */
@Module({ providers: [{ provide: APP_FILTER, useClass: HeliosExceptionFilter }] })
export class ErrorsModule {}
