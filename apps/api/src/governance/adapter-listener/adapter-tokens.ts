import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The two bearer scopes of the adapter listener: governance routes vs SDK routes. */
export interface AdapterTokens {
  readonly adapter: string;
  readonly sdk: string;
}

const SCOPES = [
  ['adapter', 'HELIO_ADAPTER_TOKEN'],
  ['sdk', 'HELIO_SDK_TOKEN'],
] as const;

/**
 * Tokens from the environment (acknowledged without their value), else 32 random bytes per boot, printed
 * once to `announce` and exported to `env` so processes this one starts can read them.
 */
export function resolveTokens(env: NodeJS.ProcessEnv, announce: (line: string) => void): AdapterTokens {
  const tokens: Record<string, string> = {};
  for (const [scope, name] of SCOPES) {
    const given = env[name]?.trim();
    if (given) {
      announce(`${name}: using the value from the environment`);
      tokens[scope] = given;
    } else {
      const generated = randomBytes(32).toString('hex');
      env[name] = generated;
      announce(`${name} (generated for this boot): ${generated}`);
      tokens[scope] = generated;
    }
  }
  return { adapter: tokens.adapter as string, sdk: tokens.sdk as string };
}

/** SHA-256 of a token; the expected side is hashed once, at start. */
export function tokenDigest(token: string): Buffer {
  // One-shot hashing: no Hash object per request.
  return hash('sha256', token, 'buffer');
}

/**
 * Constant-time: the presented token is hashed to the expected digest's fixed length first, so neither
 * its length nor its content leaks through timing.
 */
export function tokenMatches(presented: string | undefined, expectedDigest: Buffer): boolean {
  if (presented === undefined) return false;
  return timingSafeEqual(tokenDigest(presented), expectedDigest);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([^\s]+)$/i.exec(header ?? '');
  return match?.[1];
}
