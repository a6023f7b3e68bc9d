/**
 * The environment a grant's child gets, which is all it gets: PATH, the grant's variables and the
 * call's marker; nothing of the parent's. Secret variables (`withEnv`) are registered in the sessions'
 * SecretRegistry at build, so their values are redacted wherever the output goes.
 *
 * A secret value the registry refuses (shorter than MIN_SECRET_LENGTH, non-ASCII, a quote, …) fails
 * the build: a value too short to redact cannot be kept from the model. A setting that is not a secret
 * (`NO_COLOR=1`) goes through `withPlainEnv`, which registers nothing.
 *
 * Registering never replaces a secret already in the registry: another grant (or the application) may
 * have registered a different value under the same name, and replacing it would stop its redaction.
 * The value then goes in under the first free name among NAME_2, NAME_3, …; a name that already holds
 * this very value is reused, so building the same grant twice registers nothing new.
 */
import { InvalidArgumentError } from '../common/helios-error.js';
import { redactionMarker } from '../secrets/redactor.js';
import { SecretRegistry } from '../secrets/secret-registry.js';

/** The variable carrying a call's unique marker, which the reaper looks for; not a secret. */
export const CALL_MARKER_ENV = 'HELIOS_GRANT_CALL';
export const DEFAULT_GRANT_PATH = '/usr/local/bin:/usr/bin:/bin';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A variable name a grant may set: a portable identifier, not PATH (see withPath) nor the marker. */
export function requireEnvName(name: unknown): string {
  if (typeof name !== 'string' || !ENV_NAME.test(name)) {
    throw new InvalidArgumentError(
      `environment variable name must match ${String(ENV_NAME)}, got ${JSON.stringify(name)}`,
    );
  }
  if (name === 'PATH') throw new InvalidArgumentError("the child's PATH is set with withPath(path)");
  if (name === CALL_MARKER_ENV)
    throw new InvalidArgumentError(`${CALL_MARKER_ENV} is reserved for the grant`);
  return name;
}

/** A value the child can receive (a string without NUL); the message never shows the value. */
export function requireEnvValue(name: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new InvalidArgumentError(
      `value of ${name} must be a string, got ${value === null ? 'null' : typeof value}`,
    );
  }
  if (value.includes('\0')) throw new InvalidArgumentError(`value of ${name} contains a NUL character`);
  return value;
}

/** A PATH of absolute directories, for the child's PATH variable. */
export function requireChildPath(path: unknown): string {
  const valid =
    typeof path === 'string' &&
    path !== '' &&
    !path.includes('\0') &&
    path.split(':').every((dir) => dir.startsWith('/'));
  if (!valid) {
    throw new InvalidArgumentError(
      `PATH must be ':'-separated absolute directories, got ${JSON.stringify(path)}`,
    );
  }
  return path;
}

/**
 * Registers every secret variable in `registry`, all or none: each value is first checked on a scratch
 * registry, so a refused one leaves `registry` as it was. The refusal names the variable, never the value.
 */
export function registerGrantSecrets(registry: SecretRegistry, secrets: ReadonlyMap<string, string>): void {
  const scratch = new SecretRegistry();
  for (const [name, value] of secrets) {
    try {
      scratch.register(name, value);
    } catch (error) {
      throw new InvalidArgumentError(
        `withEnv('${name}'): ${(error as Error).message}; a value that is not a secret goes through withPlainEnv`,
        { cause: error },
      );
    }
  }
  for (const [name, value] of secrets) registerWithoutReplacing(registry, name, value);
}

function registerWithoutReplacing(registry: SecretRegistry, name: string, value: string): void {
  const taken = new Set(registry.names());
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? name : `${name}_${n}`;
    if (!taken.has(candidate)) {
      registry.register(candidate, value);
      return;
    }
    if (registry.redactor().redactText(value) === redactionMarker(candidate)) return;
  }
}

/** The child's whole environment for one call. */
export function childEnvironment(
  path: string,
  variables: ReadonlyMap<string, string>,
  marker: string,
): Record<string, string> {
  return { PATH: path, ...Object.fromEntries(variables), [CALL_MARKER_ENV]: marker };
}
