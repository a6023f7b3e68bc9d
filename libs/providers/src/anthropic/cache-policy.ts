/**
 * How Anthropic prompt caching is managed: five-minute ephemeral breakpoints by default, one-hour ones
 * for conversations with long gaps, or none for one-shot work. The policy also picks the cache-write
 * price (AnthropicPricing), since Anthropic charges by TTL.
 */
export type CachePolicy =
  { readonly type: 'ShortLived' } | { readonly type: 'LongLived' } | { readonly type: 'Disabled' };

export const CachePolicy = {
  /** The default: `cache_control: {type: "ephemeral"}` (five minutes). */
  shortLived: (): CachePolicy => Object.freeze({ type: 'ShortLived' }),
  /** `cache_control: {type: "ephemeral", ttl: "1h"}`. */
  longLived: (): CachePolicy => Object.freeze({ type: 'LongLived' }),
  /** No breakpoints are sent. */
  disabled: (): CachePolicy => Object.freeze({ type: 'Disabled' }),
} as const;

/** The `cache_control` value a breakpoint carries, or undefined when caching is off. */
export function cacheControl(policy: CachePolicy): Record<string, string> | undefined {
  switch (policy.type) {
    case 'ShortLived':
      return { type: 'ephemeral' };
    case 'LongLived':
      return { type: 'ephemeral', ttl: '1h' };
    case 'Disabled':
      return undefined;
  }
}
