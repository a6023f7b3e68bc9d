import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigError, type ConfigIssue } from '../../config/config-error.js';

/** The two bearer scopes of the adapter listener: governance routes vs SDK routes. */
export interface AdapterTokens {
  readonly adapter: string;
  readonly sdk: string;
}

const SCOPES = [
  ['adapter', 'HELIO_ADAPTER_TOKEN'],
  ['sdk', 'HELIO_SDK_TOKEN'],
] as const;

/** Shorter than this, a token is guessable; the generated ones have 64 characters. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * Throws ConfigError (exit 2 at start) when a token set in the environment is shorter than
 * MIN_TOKEN_LENGTH or both are the same (one token would then open both scopes). Names the variables,
 * never their values.
 */
export function checkTokenEnvironment(env: NodeJS.ProcessEnv): void {
  const issues: ConfigIssue[] = [];
  for (const [, name] of SCOPES) {
    const given = env[name]?.trim();
    if (given && [...given].length < MIN_TOKEN_LENGTH)
      issues.push({
        path: name,
        message: `too short: a token needs at least ${MIN_TOKEN_LENGTH} characters`,
      });
  }
  const adapter = env.HELIO_ADAPTER_TOKEN?.trim();
  if (adapter && adapter === env.HELIO_SDK_TOKEN?.trim())
    issues.push({
      path: 'HELIO_SDK_TOKEN',
      message:
        'must differ from HELIO_ADAPTER_TOKEN: one token would open both the adapter and the SDK routes',
    });
  if (issues.length > 0) throw new ConfigError('environment', issues);
}

/**
 * Tokens from the environment (acknowledged without their value), else 32 random bytes per boot, printed
 * once to `announce` and exported to `env` so processes this one starts can read them. Throws
 * ConfigError for tokens checkTokenEnvironment refuses.
 */
export function resolveTokens(env: NodeJS.ProcessEnv, announce: (line: string) => void): AdapterTokens {
  checkTokenEnvironment(env);
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

/** Checks a presented token against one expected token. */
export type TokenMatcher = (presented: string | undefined) => boolean;

/**
 * Constant-time in the secret: the presented token is written into a scratch buffer the expected
 * token's size and compared with `timingSafeEqual`, its length folded in afterwards, so the time
 * depends only on the presented token's own length (a hash per request cost about a microsecond).
 */
export function tokenMatcher(expected: string): TokenMatcher {
  const expectedBytes = Buffer.from(expected, 'utf8');
  const scratch = Buffer.alloc(expectedBytes.length); // one per matcher: requests never interleave here
  return (presented) => {
    if (presented === undefined) return false;
    scratch.fill(0);
    scratch.write(presented, 'utf8');
    const contentMatches = timingSafeEqual(scratch, expectedBytes);
    return contentMatches && Buffer.byteLength(presented, 'utf8') === expectedBytes.length;
  };
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer ([^\s]+)$/i.exec(header ?? '');
  return match?.[1];
}
