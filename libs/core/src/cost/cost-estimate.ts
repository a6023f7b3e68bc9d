/** An amount of money as integer micro-USD (1 USD = 1,000,000 µ$). Formatting happens only for display. */
import { InvalidArgumentError } from '../common/helios-error.js';
import { formatMicroUsd, MICRO_USD_PER_USD, usdToMicroUsd } from './usd.js';

export class CostEstimate {
  static readonly ZERO = new CostEstimate(0n);

  private constructor(readonly microUsd: bigint) {
    Object.freeze(this);
  }

  static ofMicroUsd(microUsd: bigint): CostEstimate {
    if (typeof microUsd !== 'bigint' || microUsd < 0n) {
      throw new InvalidArgumentError(
        `cost must be a non-negative bigint of micro-USD, got ${String(microUsd)}`,
      );
    }
    return microUsd === 0n ? CostEstimate.ZERO : new CostEstimate(microUsd);
  }

  /** From a decimal USD amount, exact to the micro-dollar (half up beyond). */
  static ofUsd(usd: number | string): CostEstimate {
    return CostEstimate.ofMicroUsd(usdToMicroUsd(usd, 'cost'));
  }

  static sum(costs: Iterable<CostEstimate>): CostEstimate {
    let total = 0n;
    for (const cost of costs) total += cost.microUsd;
    return CostEstimate.ofMicroUsd(total);
  }

  plus(other: CostEstimate): CostEstimate {
    return CostEstimate.ofMicroUsd(this.microUsd + other.microUsd);
  }

  /** USD with all six decimals, e.g. `"0.001250"`. */
  usd(): string {
    return formatMicroUsd(this.microUsd);
  }

  /** `$x.yy`, rounded half up to the cent. */
  formatUsd(): string {
    const cents = (this.microUsd + 5_000n) / 10_000n;
    return `$${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
  }

  /** JSON has no bigint: the exact micro-USD count as a decimal string. */
  toJSON(): string {
    return this.microUsd.toString();
  }

  toString(): string {
    return `${this.usd()} USD`;
  }

  static readonly MICRO_USD_PER_USD = MICRO_USD_PER_USD;
}
