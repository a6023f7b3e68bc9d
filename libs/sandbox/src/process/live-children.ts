/**
 * Every sandbox process this host started and has not seen end, so none outlives the host: the
 * process's `exit` event and SIGINT, SIGTERM and SIGHUP kill them all (synchronously: SIGKILL to each
 * one's process group). The hooks are process-wide by nature, so one registry serves the process; it
 * installs them while at least one child is alive and removes them after the last. A signal handler
 * that is the only listener re-raises the signal once the children are dead, so the host still ends as
 * it would have; when the application listens too, ending is left to it.
 *
 * A host killed with SIGKILL runs no hook: bubblewrap's `--die-with-parent` ends the sandbox then, and
 * without bubblewrap the child ends itself when its channel closes or it finds itself re-parented.
 */

/** The part of `process` the registry uses (a test gives a stand-in). */
export interface HostProcess {
  readonly pid: number;
  on(event: 'exit', listener: () => void): unknown;
  on(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: 'exit', listener: () => void): unknown;
  off(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  listenerCount(event: string): number;
  kill(pid: number, signal?: NodeJS.Signals): unknown;
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export class ChildRegistry {
  readonly #host: HostProcess;
  readonly #live = new Map<number, () => void>();

  constructor(host: HostProcess) {
    this.#host = host;
  }

  /** Registers a child; returns its removal. `killNow` must be synchronous. */
  track(pid: number, killNow: () => void): () => void {
    if (this.#live.size === 0) this.#install();
    this.#live.set(pid, killNow);
    return () => {
      if (this.#live.delete(pid) && this.#live.size === 0) this.#uninstall();
    };
  }

  /** The pids tracked now. */
  pids(): readonly number[] {
    return [...this.#live.keys()];
  }

  readonly #killAll = (): void => {
    for (const killNow of this.#live.values()) {
      try {
        killNow();
      } catch {
        // keep going: every other child must still die
      }
    }
  };

  readonly #onSignal = (signal: NodeJS.Signals): void => {
    this.#killAll();
    if (this.#host.listenerCount(signal) === 1) {
      this.#uninstall();
      this.#host.kill(this.#host.pid, signal);
    }
  };

  #install(): void {
    this.#host.on('exit', this.#killAll);
    for (const signal of SIGNALS) this.#host.on(signal, this.#onSignal);
  }

  #uninstall(): void {
    this.#host.off('exit', this.#killAll);
    for (const signal of SIGNALS) this.#host.off(signal, this.#onSignal);
  }
}

/** This process's registry. */
export const liveChildren = new ChildRegistry(process);

/** SIGKILL to a process group; one already gone is what we wanted. */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
