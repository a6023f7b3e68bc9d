/** The IPC messages between index.ts (the parent) and one worker.ts process per system. */
export type Request =
  | { readonly type: 'warmup'; readonly sizes: readonly number[] }
  | { readonly type: 'round'; readonly sizes: readonly number[]; readonly repeats: number }
  | { readonly type: 'stop' };

/** One timed run: wall ms and CPU ms (user + system). */
export interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
}

export type Reply =
  | { readonly type: 'ready' }
  | { readonly type: 'warm' }
  | { readonly type: 'round'; readonly samples: Sample[][] }
  | { readonly type: 'stopped'; readonly maxRssMB: number }
  | { readonly type: 'failed'; readonly error: string };
