/** `http://host:port`, bracketing an IPv6 host; how both listeners report the address they bound. */
export function httpUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
