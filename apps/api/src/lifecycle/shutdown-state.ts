import { Injectable } from '@nestjs/common';

/** Whether shutdown has begun: readiness turns 503 at once while in-flight requests drain. */
@Injectable()
export class ShutdownState {
  private stopping = false;

  get shuttingDown(): boolean {
    return this.stopping;
  }

  begin(): void {
    this.stopping = true;
  }
}
