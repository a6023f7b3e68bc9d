/** What a contract suite needs from an implementation: a fresh subject per case, and its cleanup. */
import { afterEach, beforeEach } from 'vitest';

/** One store for one case. Stores over shared state (a database) must leave no live state between cases. */
export interface ContractSubject<S> {
  readonly store: S;
  /** Runs after the case, pass or fail (close pools, drop data). */
  readonly cleanup?: () => Promise<void> | void;
}

/** Makes the subject of one case; called before each case of a suite. */
export type ContractFactory<
  S,
  Subject extends ContractSubject<S> = ContractSubject<S>,
> = () => Promise<Subject>;

/**
 * Makes a subject before each case of the enclosing `describe` and cleans it up after: the returned
 * function gives the current one.
 */
export function subjectPerCase<S, Subject extends ContractSubject<S>>(
  make: ContractFactory<S, Subject>,
): () => Subject {
  let current: Subject | undefined;
  beforeEach(async () => {
    current = await make();
  });
  afterEach(async () => {
    const done = current;
    current = undefined;
    await done?.cleanup?.();
  });
  return () => {
    if (current === undefined) throw new Error('the contract subject is made in beforeEach');
    return current;
  };
}

let counter = 0;
const run = Math.random().toString(36).slice(2, 8);

/** A name no other case (of any suite, in any run sharing the store's data) uses. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${run}-${counter}`;
}
