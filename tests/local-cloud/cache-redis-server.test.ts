/**
 * The local cloud's redis-server processes (local-cloud/cache/redis/server.ts): a node whose port was
 * taken between choosing it and binding it (another test's servers, any process) starts on another
 * port, and the failed launch is not reported as the node's process ending (which marks the node
 * FAILED: a cluster create failed that way once in CI). The end of the process that served is.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { findRedisServer, RedisServer } from "../../local-cloud/cache/redis/server";

let dir: string;
let blocker: net.Server;
let taken: number;
/** What connects to the taken port (a launch's first PING goes there before its process dies). */
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  if (!findRedisServer()) throw new Error("redis-server is not installed: run `make redis` (scripts/redis.sh installs Debian's) or set KRCLOUD_REDIS_SERVER");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-redis-server-"));
  blocker = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  taken = (blocker.address() as net.AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => blocker.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

test.each([false, true])("a taken port (cluster mode %s) is retried on another, and only the serving process's end is heard", async (cluster) => {
  const server = new RedisServer({ dir: path.join(dir, `node-${cluster}`), cluster, port: taken, busPort: cluster ? taken : undefined });
  const ends: number[] = [];
  server.onExit(() => ends.push(server.port));
  await server.start();
  try {
    expect(server.port).not.toBe(taken);
    expect(await server.command("PING")).toBe("PONG");
    expect(ends).toEqual([]);

    // The process that serves ends without being asked: that is heard.
    const port = server.port;
    process.kill(server.pid!, "SIGKILL");
    for (let i = 0; i < 500 && ends.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(ends).toEqual([port]);
  } finally {
    await server.stop(false);
  }
});
