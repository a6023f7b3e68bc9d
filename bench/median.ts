/** The median of a non-empty sample (the upper middle of an even one): what every bench reports. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
