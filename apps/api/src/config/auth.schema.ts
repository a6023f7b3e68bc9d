import { isIP } from 'node:net';
import { z } from 'zod';

/** A tenant or subject: printable text (it is compared, logged and shown, never parsed). */
const principalPart = z
  .string()
  .min(1)
  .max(256)
  .refine(
    (value) => ![...value].some((c) => c < ' ' || c === '\u007f'),
    'must not contain control characters',
  );

/** Short static tokens are guessable; values never appear in a message, only their problem. */
const MIN_TOKEN_LENGTH = 16;
const MIN_JWT_SECRET_LENGTH = 32;

const staticToken = z.strictObject({
  /** May be `${ENV}`; compared in constant time, never logged. */
  token: z.string().min(MIN_TOKEN_LENGTH, `must have at least ${MIN_TOKEN_LENGTH} characters`),
  tenant: principalPart,
  subject: principalPart,
  roles: z.array(z.string().min(1).max(128)).max(64).default([]),
});

const jwt = z
  .strictObject({
    /** `iss` must equal this. */
    issuer: z.string().min(1),
    /** `aud` must contain this. */
    audience: z.string().min(1),
    /** Keys from a JWKS document (RS/PS/ES/EdDSA), fetched and cached by `jose`. */
    jwksUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** A shared HMAC secret (HS256/384/512); may be `${ENV}`. */
    secret: z
      .string()
      .min(MIN_JWT_SECRET_LENGTH, `must have at least ${MIN_JWT_SECRET_LENGTH} characters`)
      .optional(),
    /** The claim naming the tenant; the subject is `sub`. */
    tenantClaim: z.string().min(1).default('tenant'),
    clockToleranceSec: z.number().int().min(0).max(300).default(0),
  })
  .refine((value) => (value.jwksUrl === undefined) !== (value.secret === undefined), {
    message: 'set exactly one of jwksUrl and secret',
  });

const trustedProxy = z.strictObject({
  /** Connections from these addresses may assert X-Authenticated-Tenant / -Subject. */
  addresses: z.array(z.string().refine((value) => isIP(value) !== 0, 'not an IP address')).min(1),
  challenge: z.string().min(1).default('TrustedProxy realm="helios"'),
});

/**
 * `auth:` — how the runtime API (`/v1/sessions`, `/v1/agents`) knows its callers. Absent: one local
 * principal, accepted only on a loopback bind. Present: at least one authenticator.
 */
export const authSchema = z
  .strictObject({
    tokens: z.array(staticToken).min(1).optional(),
    jwt: jwt.optional(),
    trustedProxy: trustedProxy.optional(),
  })
  .superRefine((auth, ctx) => {
    if (auth.tokens === undefined && auth.jwt === undefined && auth.trustedProxy === undefined) {
      ctx.addIssue({ code: 'custom', message: 'configure at least one of tokens, jwt and trustedProxy' });
    }
    const seen = new Map<string, number>();
    auth.tokens?.forEach((entry, index) => {
      const first = seen.get(entry.token);
      if (first === undefined) seen.set(entry.token, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: ['tokens', index, 'token'],
          message: `the same token as tokens.${first}.token`,
        });
    });
  });

export type AuthConfig = z.infer<typeof authSchema>;
export type StaticTokenConfig = z.infer<typeof staticToken>;
export type JwtConfig = z.infer<typeof jwt>;
export type TrustedProxyConfig = z.infer<typeof trustedProxy>;
