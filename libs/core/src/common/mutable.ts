/** A readonly shape while it is being built: an object completed field by field before it is handed out. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
