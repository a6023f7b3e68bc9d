/** The parent's handle on one worker.ts process: fork it, send a request, await its one reply. */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { type Reply, type Request } from './protocol.ts';

const WORKER = join(import.meta.dirname, 'worker.ts');

type ReplyOf<T extends Reply['type']> = Extract<Reply, { type: T }>;

export class Worker {
  #pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | undefined;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (reply: Reply) => {
      const pending = this.#pending;
      this.#pending = undefined;
      if (reply.type === 'failed') pending?.reject(new Error(`${name}: ${reply.error}`));
      else pending?.resolve(reply);
    });
    child.on('exit', (code, signal) => {
      this.#pending?.reject(new Error(`${name} worker exited (${code ?? signal})`));
      this.#pending = undefined;
    });
  }

  /** Forks the worker (it inherits tsx's loader through execArgv) and waits until its system is loaded. */
  static async start(name: string): Promise<Worker> {
    const worker = new Worker(name, fork(WORKER, [name], { stdio: 'inherit' }));
    await worker.#next('ready');
    return worker;
  }

  request<T extends Reply['type']>(request: Request, expected: T): Promise<ReplyOf<T>> {
    const reply = this.#next(expected);
    this.child.send(request);
    return reply;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }

  #next<T extends Reply['type']>(expected: T): Promise<ReplyOf<T>> {
    return new Promise((resolve, reject) => {
      this.#pending = {
        resolve: (reply) =>
          reply.type === expected
            ? resolve(reply as ReplyOf<T>)
            : reject(new Error(`${this.name}: expected ${expected}, got ${reply.type}`)),
        reject,
      };
    });
  }
}
