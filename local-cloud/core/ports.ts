import { createServer } from "node:net";

/**
 * A TCP port that is free on 127.0.0.1 right now (the kernel picks it). Another process may take it
 * before the caller binds it: callers that hand it to a child process retry on "address in use".
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no port was assigned"))));
    });
  });
}
