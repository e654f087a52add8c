/**
 * A stable endpoint on 127.0.0.1 in front of nodes whose ports do not move: each connection is
 * piped to the port `target()` names at connect time. `retarget()` closes the connections made so
 * far (a promoted primary): clients reconnect and reach the new target.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { freePort } from "../../core/ports";

export class Forwarder {
  port = 0;
  private server: Server | undefined;
  private readonly open = new Set<Socket>();

  constructor(private readonly target: () => number | undefined) {}

  /** Listens on `port` when it is free (a restart keeps its endpoint), else on a free one. */
  async listen(port: number | undefined): Promise<number> {
    for (const candidate of [port, undefined, undefined]) {
      const p = candidate || (await freePort());
      try {
        this.server = await this.bind(p);
        this.port = p;
        return p;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
      }
    }
    throw new Error("no free port for a cache endpoint");
  }

  private bind(port: number): Promise<Server> {
    return new Promise((resolve, reject) => {
      const server = createServer((client) => this.accept(client));
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve(server);
      });
    });
  }

  private accept(client: Socket): void {
    const port = this.target();
    if (port === undefined) {
      client.destroy();
      return;
    }
    const upstream = connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      this.open.add(s);
      s.setNoDelay(true);
      s.on("error", () => undefined);
      s.on("close", () => {
        this.open.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  retarget(): void {
    for (const s of this.open) s.destroy();
  }

  async close(): Promise<void> {
    this.retarget();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
