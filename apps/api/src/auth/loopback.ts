import { isIP } from 'node:net';

/**
 * Whether a bind address reaches this machine only: `localhost`, 127.0.0.0/8, `::1` (and its
 * IPv4-mapped form). `0.0.0.0` and `::` are every interface, not loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  const mapped = bare.toLowerCase().startsWith('::ffff:') ? bare.slice(7) : bare;
  if (isIP(mapped) === 4) return mapped.split('.')[0] === '127';
  if (isIP(bare) === 6) return /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(bare.toLowerCase());
  return false;
}
