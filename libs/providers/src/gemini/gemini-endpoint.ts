/**
 * Where the Gemini API lives for one model or files client. The version (`v1` stable, `v1beta`) is
 * chosen per instance and fixed; a configured base URL is the complete endpoint prefix and wins over
 * the canonical `{host}/{version}` path. `gemini.apiVersion` reports the version only, never a URL.
 */
import { InvalidArgumentError, type ModelConfig } from '@helios/core';

export const GEMINI_API_HOST = 'https://generativelanguage.googleapis.com';
export const GEMINI_API_VERSIONS = ['v1', 'v1beta'] as const;
export type GeminiApiVersion = (typeof GEMINI_API_VERSIONS)[number];
/** The original's default: the Interactions API and Files API video references live on v1beta. */
export const DEFAULT_GEMINI_API_VERSION: GeminiApiVersion = 'v1beta';
/** The Interactions API revision this provider speaks (`Api-Revision` header). */
export const GEMINI_API_REVISION = '2026-05-20';

export interface GeminiEndpointOptions {
  /**
   * The API's origin for canonical `{host}/{version}/…` paths (a proxy that mirrors Google's paths, a
   * test server); default GEMINI_API_HOST. A config `baseUrl` takes precedence over it.
   */
  readonly host?: string;
}

export interface GeminiEndpoint {
  readonly apiVersion: GeminiApiVersion;
  /** `{host}/{version}`, or the configured base URL verbatim. */
  readonly prefix: string;
}

export function geminiEndpoint(
  subject: string,
  config: ModelConfig,
  options: GeminiEndpointOptions = {},
): GeminiEndpoint {
  const requested = config.apiVersion ?? DEFAULT_GEMINI_API_VERSION;
  if (!(GEMINI_API_VERSIONS as readonly string[]).includes(requested)) {
    throw new InvalidArgumentError(
      `${subject} does not accept apiVersion ${requested}; accepted: ${GEMINI_API_VERSIONS.join(', ')}`,
    );
  }
  const apiVersion = requested as GeminiApiVersion;
  const host = options.host ?? GEMINI_API_HOST;
  if (!URL.canParse(host)) throw new InvalidArgumentError(`${subject}: host must be an absolute URL`);
  const prefix = trimSlashes(config.baseUrl ?? `${trimSlashes(host)}/${apiVersion}`);
  return { apiVersion, prefix };
}

/** `{prefix}{path}` for a path starting with a slash. */
export function under(prefix: string, path: string): string {
  return `${prefix}${path}`;
}

/** The upload twin of a prefix: `https://host/v1beta` → `https://host/upload/v1beta`. */
export function uploadPrefix(prefix: string): string {
  const url = new URL(prefix);
  return `${url.origin}/upload${trimSlashes(url.pathname)}${url.search}`;
}

function trimSlashes(text: string): string {
  return text.replace(/\/+$/, '');
}
