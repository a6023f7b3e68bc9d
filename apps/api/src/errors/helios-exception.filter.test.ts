import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { HeliosError, InvalidArgumentError } from '@helios/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, httpStatusFor } from './error-table.js';
import { ErrorsModule } from './errors.module.js';

class UnmappedError extends HeliosError {
  readonly code = 'NOT_IN_THE_TABLE';
}

class SessionBusyError extends HeliosError {
  readonly code = 'STEERING_QUEUE_FULL';
}

@Controller('boom')
class BoomController {
  @Get('invalid')
  invalid(): never {
    throw new InvalidArgumentError('maxTurns must be positive');
  }

  @Get('busy')
  busy(): never {
    throw new SessionBusyError('the steering queue is full');
  }

  @Get('unmapped')
  unmapped(): never {
    throw new UnmappedError('secret detail: /var/lib/helios');
  }

  @Get('plain')
  plain(): never {
    throw new Error('not a library error');
  }
}

@Module({ imports: [ErrorsModule], controllers: [BoomController] })
class BoomModule {}

describe('the global exception filter on a real Nest app', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(BoomModule, new FastifyAdapter(), {
      logger: false,
    });
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await app?.close();
  });

  const get = async (path: string) => {
    const response = await fetch(`${url}/boom/${path}`);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('answers a library error with the status its code has in the table', async () => {
    expect(await get('invalid')).toEqual({
      status: 400,
      body: { error: 'INVALID_ARGUMENT', message: 'maxTurns must be positive' },
    });
    expect(await get('busy')).toEqual({
      status: 429,
      body: { error: 'STEERING_QUEUE_FULL', message: 'the steering queue is full' },
    });
  });

  it('answers a code missing from the table with 500 and keeps its message out of the response', async () => {
    expect(await get('unmapped')).toEqual({
      status: 500,
      body: { error: 'internal_error', message: 'internal error' },
    });
  });

  it("leaves other errors to Nest's own handling", async () => {
    expect((await get('plain')).status).toBe(500);
  });
});

describe('the error table', () => {
  it('maps unknown codes, including prototype keys, to 500', () => {
    expect(httpStatusFor('toString')).toBe(500);
    expect(httpStatusFor('__proto__')).toBe(500);
    expect(httpStatusFor('evaluation_backlog_full')).toBe(503);
  });

  it('holds only error statuses', () => {
    for (const status of Object.values(ERROR_STATUS)) expect(status).toBeGreaterThanOrEqual(400);
  });
});
