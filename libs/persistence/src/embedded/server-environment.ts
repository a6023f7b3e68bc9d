/** What the server and its tools may see of our environment; everything else (tokens, keys, PG*) stays here. */
const PASSED_THROUGH = ['PATH', 'TZ'] as const;

/**
 * The environment for initdb, postgres and the helpers we run as the server's user: an allow-list, not
 * ours minus some, because ours holds the application's secrets (HELIO_ADAPTER_TOKEN, …) and the
 * server's user can read it back from /proc/<pid>/environ. PATH serves the shell initdb runs its steps
 * through; TZ lets initdb pick the host's time zone; no LD_LIBRARY_PATH, as the binaries find their
 * libraries through their own RUNPATH ($ORIGIN/../lib); no LANG or LC_*, as LC_ALL=C overrides them
 * (the cluster has no locale); no PG*, which would steer the binaries.
 */
export function serverEnvironment(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: '/usr/local/bin:/usr/bin:/bin' };
  for (const name of PASSED_THROUGH) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  env.LC_ALL = 'C';
  return env;
}
