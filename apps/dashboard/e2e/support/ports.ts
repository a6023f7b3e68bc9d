import { createServer } from 'node:net';

/** A port that was free a moment ago: the OS picks it for a listener on port 0, which is then closed. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the address of a port-0 listener'));
        return;
      }
      server.close(() => resolvePort(address.port));
    });
  });
}
