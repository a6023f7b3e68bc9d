/** Resolves true when `promise` settles within `ms`, false otherwise (at once when `ms` ≤ 0). */
export function within(promise: Promise<void>, ms: number): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
