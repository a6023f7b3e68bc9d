/** A listener could not bind its address; the message says why in words (port in use, …). */
export class ListenError extends Error {
  readonly code = 'LISTEN_FAILED';
  constructor(host: string, port: number, cause: unknown) {
    const errno = (cause as NodeJS.ErrnoException).code;
    const why =
      errno === 'EADDRINUSE'
        ? 'address already in use'
        : errno === 'EADDRNOTAVAIL'
          ? 'address not available on this machine'
          : errno === 'EACCES'
            ? 'permission denied'
            : cause instanceof Error
              ? cause.message
              : String(cause);
    super(`cannot listen on ${host}:${port}: ${why}`, { cause });
    this.name = 'ListenError';
  }
}
