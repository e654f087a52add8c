/**
 * A loopback HTTP server whose answers a test scripts (`route`), recording every request it saw:
 * for SDK unit tests of what goes on the wire and how answers are read.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { closeAllPools } from "../../../client/core";

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
/** `destroy` closes the connection instead of answering (a lost answer: the request was handled). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string | Buffer; destroy?: boolean };

export interface ScriptedServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly seen: Seen[];
  route: (r: Seen) => Reply | Promise<Reply>;
  /** The most requests it held at once (received, not yet answered) since the last reset. */
  readonly maxInFlight: number;
  /** Forgets the requests seen and answers 500 until a test sets `route`. */
  reset(): void;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const state: { route: ScriptedServer["route"]; inFlight: number; maxInFlight: number } = { route: () => ({ status: 500 }), inFlight: 0, maxInFlight: 0 };
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    req.on("data", (c: Buffer) => chunks.push(c));
    const respond = async (): Promise<void> => {
      const r: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      seen.push(r);
      let reply: Reply;
      try {
        reply = await state.route(r);
      } catch (e) {
        reply = { status: 599, body: `test route failed: ${(e as Error).message}` };
      }
      state.inFlight--;
      if (reply.destroy) {
        req.socket.destroy();
        return;
      }
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? "");
    };
    req.on("end", () => void respond());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    get route() {
      return state.route;
    },
    set route(fn) {
      state.route = fn;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    reset() {
      seen.length = 0;
      state.maxInFlight = 0;
      state.route = () => ({ status: 500 });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * One scripted server for a test file: started before its tests, reset before each, closed after
 * them together with the client's connection pools. The handle may be used once `beforeAll` has run.
 */
export function useScriptedServer(): ScriptedServer {
  let current: ScriptedServer | undefined;
  const live = (): ScriptedServer => {
    if (!current) throw new Error("the scripted server is used before beforeAll started it");
    return current;
  };
  beforeAll(async () => {
    current = await startScriptedServer();
  });
  afterAll(async () => {
    await closeAllPools();
    await current?.close();
  });
  beforeEach(() => live().reset());
  return {
    get origin() {
      return live().origin;
    },
    get seen() {
      return live().seen;
    },
    get route() {
      return live().route;
    },
    set route(fn) {
      live().route = fn;
    },
    get maxInFlight() {
      return live().maxInFlight;
    },
    reset: () => live().reset(),
    close: () => live().close(),
  };
}

export const jsonReply = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
