import * as http from "node:http";
import * as net from "node:net";
import * as util from "node:util";
import type { AddressInfo } from "node:net";
import {
  DEFAULT_RETRY,
  Transport,
  closeAllPools,
  isApiError,
  isNetworkErrorCode,
  isNotFound,
  isThrottled,
  isTransportError,
  mayHaveApplied,
  registerSecrets,
  resetRetryBudget,
  retryDelay,
  withRequestStats,
  type Clock,
} from "../../client/core";

/** A loopback server whose handler is swapped per test; it records every request it receives. */
let server: http.Server;
let base: string;
let handler: (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;
let received: { method: string; url: string; headers: http.IncomingHttpHeaders }[];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push({ method: req.method!, url: req.url!, headers: req.headers });
    req.resume();
    req.on("end", () => handler(req, res, received.length));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/svc`;
});
afterAll(async () => {
  await closeAllPools();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  received = [];
});

/** Records requested sleeps instead of sleeping. */
function fakeClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  let t = 1_000_000;
  return {
    sleeps,
    now: () => t,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}

function failNTimes(n: number, status: number, headers: Record<string, string> = {}) {
  return (_req: http.IncomingMessage, res: http.ServerResponse, count: number) => {
    if (count <= n) {
      res.writeHead(status, { "content-type": "application/json", "x-openstack-request-id": `req-${count}`, ...headers });
      res.end(JSON.stringify({ code: "Busy", message: "try later" }));
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    }
  };
}

const transport = (clock: Clock, extra: Partial<ConstructorParameters<typeof Transport>[0]> = {}) =>
  new Transport({ service: "test", endpoint: base, clock, authHeaders: () => ({ "x-auth-token": "tok-SECRET-1234" }), ...extra });

/** Drops (resets) the next `left` connections without an answer, then answers with `answer`; `left` may be set again. */
function resetFirst(answer: (res: http.ServerResponse) => void): { left: number } {
  const resets = { left: 1 };
  handler = (req, res) => {
    if (resets.left-- > 0) {
      req.socket.destroy();
      return;
    }
    answer(res);
  };
  return resets;
}

/**
 * `request` by a transport on a fake clock, the server answering it `status` `failures` times
 * first: what it returned, or the error it threw.
 */
function requestFailing(failures: number, status: number, request: Parameters<Transport["request"]>[0]) {
  handler = failNTimes(failures, status);
  return transport(fakeClock())
    .request(request)
    .catch((e) => e);
}

test("GET is retried on 503 until it succeeds, with jittered exponential backoff", async () => {
  handler = failNTimes(3, 503);
  const clock = fakeClock();
  const res = await transport(clock).request({ operation: "Get", method: "GET", path: "/x", idempotent: true });
  expect(res.status).toBe(200);
  expect(res.attempts).toBe(4);
  expect(received).toHaveLength(4);
  // base 200 ms, equal jitter with random()=0.5: half the ceiling plus 0.5 of the other half (200, 400, 800)
  expect(clock.sleeps).toEqual([150, 300, 600]);
  expect(received[0]!.url).toBe("/svc/x");
  expect(received[0]!.headers["x-auth-token"]).toBe("tok-SECRET-1234");
});

test("Retry-After (seconds) is honoured instead of the backoff", async () => {
  handler = failNTimes(1, 429, { "retry-after": "3" });
  const clock = fakeClock();
  await transport(clock).request({ operation: "Get", method: "GET", path: "/x", idempotent: true });
  expect(clock.sleeps).toEqual([3000]);
});

test("Retry-After as an HTTP date is honoured and clamped to the cap", async () => {
  const clock = fakeClock();
  handler = failNTimes(1, 503, { "retry-after": new Date(clock.now() + 600_000).toUTCString() });
  await transport(clock, { retry: { maxRetryAfterMs: 5000 } }).request({ operation: "Get", method: "GET", path: "/x", idempotent: true });
  expect(clock.sleeps).toEqual([5000]);
});

test("gives up after maxAttempts and reports status, code, request id and operation", async () => {
  handler = failNTimes(99, 503);
  const clock = fakeClock();
  const err = await transport(clock, { retry: { maxAttempts: 3 } })
    .request({ operation: "GetThing", method: "GET", path: "/x", idempotent: true, action: 'reading thing "a"' })
    .catch((e) => e);
  expect(isApiError(err)).toBe(true);
  expect(err.status).toBe(503);
  expect(err.apiCode).toBe("Busy");
  expect(err.requestId).toBe("req-3");
  expect(err.operation).toBe("GetThing");
  expect(err.message).toMatch(/^reading thing "a": 503 Busy: try later/);
  expect(received).toHaveLength(3);
});

test("throttling (429) is retried beyond maxAttempts, up to maxThrottledAttempts: a throttled request was not processed", async () => {
  handler = failNTimes(7, 429);
  const clock = fakeClock();
  const { value, stats } = await withRequestStats(() =>
    transport(clock, { retry: { maxAttempts: 3, maxThrottledAttempts: 10 } }).request({ operation: "Create", method: "POST", path: "/x", idempotent: false }),
  );
  expect(value.attempts).toBe(8);
  expect(received).toHaveLength(8);
  // The operation's counters say how much throttling it rode out.
  expect(stats).toEqual({ requests: 8, retries: 7, throttled: 7 });

  received = [];
  handler = failNTimes(99, 429);
  const err = await transport(fakeClock(), { retry: { maxAttempts: 3, maxThrottledAttempts: 10 } })
    .request({ operation: "Get", method: "GET", path: "/x", idempotent: true })
    .catch((e) => e);
  expect(isThrottled(err)).toBe(true);
  expect(received).toHaveLength(10);
});

test("KRCLOUD_RETRY_BUDGET bounds the retries of the whole process; the error says the budget is spent", async () => {
  process.env.KRCLOUD_RETRY_BUDGET = "3";
  resetRetryBudget();
  try {
    handler = failNTimes(2, 429);
    await transport(fakeClock()).request({ operation: "Get", method: "GET", path: "/a", idempotent: true });
    received = [];
    handler = failNTimes(99, 503);
    const err = await transport(fakeClock())
      .request({ operation: "Get", method: "GET", path: "/b", idempotent: true })
      .catch((e) => e);
    // One retry was left of the three.
    expect(received).toHaveLength(2);
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/retry budget KRCLOUD_RETRY_BUDGET=3 of this run is spent/);
  } finally {
    delete process.env.KRCLOUD_RETRY_BUDGET;
    resetRetryBudget();
  }
});

test("an operation that is not idempotent is not retried on a 503 without Retry-After: it may have been applied", async () => {
  const err = await requestFailing(1, 503, { operation: "Create", method: "POST", path: "/x", body: "{}", idempotent: false });
  expect(err.status).toBe(503);
  expect(received).toHaveLength(1);
});

test("404 and 429 are recognised by brand, not instanceof", async () => {
  handler = (_q, res) => {
    res.writeHead(404);
    res.end("Not Found");
  };
  const e404 = await transport(fakeClock())
    .request({ operation: "Get", method: "GET", path: "/x", idempotent: true })
    .catch((e) => e);
  expect(isNotFound(e404)).toBe(true);
  expect(e404.apiMessage).toBe("Not Found");
  handler = failNTimes(99, 429);
  const e429 = await transport(fakeClock(), { retry: { maxAttempts: 1, maxThrottledAttempts: 1 } })
    .request({ operation: "Get", method: "GET", path: "/x", idempotent: true })
    .catch((e) => e);
  expect(isThrottled(e429)).toBe(true);
  // A plain copy of the error (another copy of the module would produce one) is still recognised.
  expect(isNotFound(Object.assign(Object.create(Object.getPrototypeOf({})), e404))).toBe(true);
});

test("a reset connection is retried for an idempotent operation but not for one that is not", async () => {
  // Fresh connections: a reset on a reused keep-alive connection before any answer byte is another
  // rule (tested below).
  await closeAllPools();
  const resets = resetFirst((res) => res.end("ok"));
  const res = await transport(fakeClock()).request({ operation: "Get", method: "GET", path: "/x", idempotent: true });
  expect(res.body.toString()).toBe("ok");
  expect(received).toHaveLength(2);

  received = [];
  resets.left = 1;
  await closeAllPools();
  const err = await transport(fakeClock())
    .request({ operation: "Create", method: "POST", path: "/x", body: "{}", idempotent: false })
    .catch((e) => e);
  expect(isTransportError(err)).toBe(true);
  expect(err.neverSent).toBe(false);
  expect(received).toHaveLength(1);
});

test("a refused connection is retried even for POST: it provably never reached the server", async () => {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  const clock = fakeClock();
  const err = await new Transport({ service: "t", endpoint: `http://127.0.0.1:${port}`, clock, retry: { maxAttempts: 3 } })
    .request({ operation: "Create", method: "POST", path: "/x", body: "{}", idempotent: false })
    .catch((e) => e);
  expect(isTransportError(err)).toBe(true);
  expect(err.networkCode).toBe("ECONNREFUSED");
  expect(err.neverSent).toBe(true);
  expect(clock.sleeps).toHaveLength(2);
});

test("credentials never appear in error messages or debug lines", async () => {
  handler = (req, res) => {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: "Bad", message: `token ${String(req.headers["x-auth-token"])} rejected` }));
  };
  const lines: string[] = [];
  const err = await transport(fakeClock(), { debug: (l) => lines.push(l) })
    .request({ operation: "Get", method: "GET", path: "/x", idempotent: true })
    .catch((e) => e);
  expect(err.message).toContain("token [redacted] rejected");
  expect(err.message).not.toContain("tok-SECRET-1234");
  expect(lines.length).toBeGreaterThan(0);
  for (const l of lines) expect(l).not.toContain("tok-SECRET-1234");
  expect(lines.join("\n")).toContain('"x-auth-token":"[redacted]"');
});

test("an error after a retried attempt that may have reached the server says so; a first-attempt error does not", async () => {
  const resets = resetFirst((res) => {
    res.writeHead(409, { "content-type": "application/json" });
    res.end('{"code":"BucketAlreadyExists","message":"taken"}');
  });
  const err = await transport(fakeClock())
    .request({ operation: "CreateBucket", method: "PUT", path: "/b", idempotent: true })
    .catch((e) => e);
  expect(err.status).toBe(409);
  expect(err.earlierAttemptMayHaveApplied).toBe(true);

  resets.left = 0;
  const first = await transport(fakeClock())
    .request({ operation: "CreateBucket", method: "PUT", path: "/b", idempotent: true })
    .catch((e) => e);
  expect(first.status).toBe(409);
  expect(first.earlierAttemptMayHaveApplied).toBe(false);
});

// ---------------------------------------------------------------------------------------------
// Backoff

test("the backoff has a floor of half its ceiling (equal jitter): a draw of 0 never means no wait", () => {
  const r = (x: number) => () => x;
  expect([1, 2, 3, 4].map((a) => retryDelay(DEFAULT_RETRY, a, r(0)))).toEqual([100, 200, 400, 800]);
  expect([1, 2, 3, 4].map((a) => retryDelay(DEFAULT_RETRY, a, r(0.5)))).toEqual([150, 300, 600, 1200]);
  expect([1, 2, 3, 4].map((a) => retryDelay(DEFAULT_RETRY, a, r(0.999999)))).toEqual([199, 399, 799, 1599]);
  // The cap (10 s) bounds the ceiling; the floor is half of the capped ceiling.
  expect(retryDelay(DEFAULT_RETRY, 12, r(0))).toBe(5000);
  expect(retryDelay(DEFAULT_RETRY, 12, r(0.999999))).toBe(9999);
});

// ---------------------------------------------------------------------------------------------
// What counts as a network error

test("only socket errno codes and undici's network codes are network errors; Node's ERR_* codes are not", () => {
  for (const code of [
    "ECONNRESET",
    "ECONNREFUSED",
    "ETIMEDOUT",
    "EPIPE",
    "ENOTFOUND",
    "EAI_AGAIN",
    "UND_ERR_SOCKET",
    "UND_ERR_CONNECT_TIMEOUT",
    "UND_ERR_HEADERS_TIMEOUT",
  ]) {
    expect([code, isNetworkErrorCode(code)]).toEqual([code, true]);
  }
  for (const code of [
    "ERR_INVALID_ARG_TYPE",
    "ERR_STREAM_PREMATURE_CLOSE",
    "ERR_INVALID_STATE",
    "EISDIR",
    "ENOENT",
    "EACCES",
    "UND_ERR_INVALID_ARG",
    "UND_ERR_NOT_SUPPORTED",
    "E",
  ]) {
    expect([code, isNetworkErrorCode(code)]).toEqual([code, false]);
  }
});

test("a programming error inside the request (ERR_INVALID_ARG_TYPE) surfaces as itself, not as a transport error", async () => {
  handler = (_q, res) => res.end("ok");
  // A body iterable that yields a number: Node rejects the chunk with ERR_INVALID_ARG_TYPE.
  const body = (function* () {
    yield 1;
  })();
  const err = await transport(fakeClock())
    .request({ operation: "Put", method: "PUT", path: "/x", body: body as never, idempotent: true })
    .catch((e) => e);
  expect(isTransportError(err)).toBe(false);
  expect(err.code).toBe("ERR_INVALID_ARG_TYPE");
});

// ---------------------------------------------------------------------------------------------
// Per-operation repeatability

test("retries follow the operation's declaration, not the method: a PUT that is not idempotent is not repeated, a POST that is, is", async () => {
  await closeAllPools();
  resetFirst((res) => {
    res.writeHead(404);
    res.end("NoSuchUpload");
  });
  // CompleteMultipartUpload: the first attempt completed the upload and its answer was lost; a
  // repeat would meet 404 NoSuchUpload and report a failure for an object that was written.
  const lost = await transport(fakeClock())
    .request({ operation: "CompleteMultipartUpload", method: "PUT", path: "/o", query: { uploadId: "u1" }, body: "<x/>", idempotent: false })
    .catch((e) => e);
  expect(isTransportError(lost)).toBe(true);
  expect(lost.neverSent).toBe(false);
  expect(received).toHaveLength(1);

  received = [];
  const acl = await requestFailing(2, 500, { operation: "UpdateBucketAcl", method: "POST", path: "/b", body: "{}", idempotent: true });
  expect(acl.status).toBe(200);
  expect(received).toHaveLength(3);

  received = [];
  const put = await requestFailing(1, 500, { operation: "CompleteMultipartUpload", method: "PUT", path: "/o", body: "<x/>", idempotent: false });
  expect(put.status).toBe(500);
  expect(received).toHaveLength(1);
});

test("429, and 503 with Retry-After, are retried for every operation: the server did not process the request", async () => {
  handler = failNTimes(1, 429);
  const clock = fakeClock();
  const a = await transport(clock).request({ operation: "Create", method: "POST", path: "/x", body: "{}", idempotent: false });
  expect([a.status, a.attempts]).toEqual([200, 2]);

  received = [];
  handler = failNTimes(1, 503, { "retry-after": "2" });
  const b = await transport(clock).request({ operation: "Create", method: "POST", path: "/x", body: "{}", idempotent: false });
  expect([b.status, b.attempts]).toEqual([200, 2]);
  expect(clock.sleeps[clock.sleeps.length - 1]).toBe(2000);

  // An answer that was not processed does not make a later error "may have applied".
  received = [];
  let n = 0;
  handler = (_q, res) => {
    n++;
    res.writeHead(n === 1 ? 429 : 409, { "content-type": "application/json" });
    res.end('{"code":"BucketAlreadyExists"}');
  };
  const c = await transport(clock)
    .request({ operation: "CreateBucket", method: "PUT", path: "/b", idempotent: true })
    .catch((e) => e);
  expect(c.status).toBe(409);
  expect(c.earlierAttemptMayHaveApplied).toBe(false);
});

test("throttling errors carry the server's Retry-After, parsed, as retryAfterMs", async () => {
  const clock = fakeClock();
  handler = failNTimes(99, 429, { "retry-after": "7" });
  const e429 = await transport(clock, { retry: { maxAttempts: 1, maxThrottledAttempts: 1 } })
    .request({ operation: "Get", method: "GET", path: "/x", idempotent: true })
    .catch((e) => e);
  expect(isThrottled(e429)).toBe(true);
  expect(e429.retryAfterMs).toBe(7000);

  handler = failNTimes(99, 503, { "retry-after": new Date(clock.now() + 30_000).toUTCString() });
  const e503 = await transport(clock, { retry: { maxAttempts: 1, maxThrottledAttempts: 1 } })
    .request({ operation: "Get", method: "GET", path: "/x", idempotent: true })
    .catch((e) => e);
  expect(e503.status).toBe(503);
  expect(e503.retryAfterMs).toBe(30_000);

  handler = failNTimes(99, 429);
  const bare = await transport(clock, { retry: { maxAttempts: 1, maxThrottledAttempts: 1 } })
    .request({ operation: "Get", method: "GET", path: "/x", idempotent: true })
    .catch((e) => e);
  expect(bare.retryAfterMs).toBeUndefined();
});

// ---------------------------------------------------------------------------------------------
// A reused keep-alive connection closed before any answer byte

/**
 * A raw HTTP/1.1 server: it answers the first request on each connection (keep-alive) and treats
 * later ones on the same connection as `later` says: close it without a byte ("fin"), reset it
 * ("rst"), or start an answer and close ("partial"). `firstToo` closes every request after the
 * very first one of the server, whatever connection it arrives on.
 */
async function rawServer(later: "fin" | "rst" | "partial", o: { firstToo?: boolean } = {}) {
  const log: { conn: number; nth: number }[] = [];
  let conns = 0;
  const srv = net.createServer((sock) => {
    const conn = ++conns;
    let nth = 0;
    let buf = "";
    sock.on("data", (d) => {
      buf += d.toString("latin1");
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const len = Number(/content-length:\s*(\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + len) return;
        buf = buf.slice(end + 4 + len);
        nth++;
        log.push({ conn, nth });
        if (nth === 1 && !(o.firstToo && log.length > 1)) {
          sock.write(`HTTP/1.1 200 OK\r\ncontent-length: 6\r\nconnection: keep-alive\r\n\r\nconn-${conn}`);
        } else if (later === "partial") {
          sock.write("HTTP/1.1 200 OK\r\ncontent-le");
          sock.destroy();
          return;
        } else if (later === "rst") {
          sock.resetAndDestroy();
          return;
        } else {
          sock.destroy();
          return;
        }
      }
    });
    sock.on("error", () => undefined);
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  return { url, log, close: () => new Promise((r) => srv.close(r)) };
}

/** Lets the pool take the answered connection back as idle, so the next request reuses it. */
const idle = () => new Promise((r) => setImmediate(r));

describe("an operation that is not idempotent goes on a connection of its own", () => {
  for (const how of ["fin", "rst"] as const) {
    test(`(${how}) a keep-alive connection the server closes as idle cannot fail it: it never uses one`, async () => {
      const s = await rawServer(how);
      try {
        const t = new Transport({ service: "t", endpoint: s.url, clock: fakeClock() });
        const get = { operation: "Get", method: "GET", path: "/o", idempotent: true };
        const spec = { operation: "InitiateMultipartUpload", method: "POST", path: "/o", query: { uploads: true }, idempotent: false };
        expect((await t.request(get)).body.toString()).toBe("conn-1");
        await idle();
        // Connection 1 is idle in the pool, and the server would close it under a second request;
        // the POST opens connection 2 instead, and is answered at its first attempt.
        const res = await t.request(spec);
        expect(s.log).toEqual([
          { conn: 1, nth: 1 },
          { conn: 2, nth: 1 },
        ]);
        expect(res.body.toString()).toBe("conn-2");
        expect(res.attempts).toBe(1);
      } finally {
        await closeAllPools();
        await s.close();
      }
    });
  }

  test("a connection closed under it after the request was sent is never sent again: the outcome is unknown", async () => {
    const s = await rawServer("fin", { firstToo: true });
    try {
      const t = new Transport({ service: "t", endpoint: s.url, clock: fakeClock() });
      const spec = { operation: "CreateCluster", method: "POST", path: "/o", idempotent: false };
      await t.request(spec);
      const err = await t.request(spec).catch((e) => e);
      expect(isTransportError(err)).toBe(true);
      expect(mayHaveApplied(err)).toBe(true);
      // One attempt: the server read it (and may have applied it) before closing.
      expect(s.log).toEqual([
        { conn: 1, nth: 1 },
        { conn: 2, nth: 1 },
      ]);
    } finally {
      await closeAllPools();
      await s.close();
    }
  });

  test("an idempotent request on a reused connection the server closed is retried on a new one", async () => {
    const s = await rawServer("rst");
    try {
      const t = new Transport({ service: "t", endpoint: s.url, clock: fakeClock() });
      const get = { operation: "Get", method: "GET", path: "/o", idempotent: true };
      await t.request(get);
      await idle();
      const res = await t.request(get);
      expect(s.log).toEqual([
        { conn: 1, nth: 1 },
        { conn: 1, nth: 2 },
        { conn: 2, nth: 1 },
      ]);
      expect(res.attempts).toBe(2);
    } finally {
      await closeAllPools();
      await s.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Deadlines

test("a retry whose delay would pass the request's deadline is not started", async () => {
  handler = failNTimes(4, 503);
  const clock = fakeClock();
  // Delays 150, 300, 600 (random 0.5): the third retry would end at +1050, past the deadline.
  const err = await transport(clock)
    .request({ operation: "Get", method: "GET", path: "/x", idempotent: true, deadline: clock.now() + 1000 })
    .catch((e) => e);
  expect(err.status).toBe(503);
  expect(received).toHaveLength(3);
  expect(clock.sleeps).toEqual([150, 300]);
});

// ---------------------------------------------------------------------------------------------
// Secrets in errors

test("no field of a transport error holds a signature or the token, its cause included", async () => {
  registerSecrets({ queryKeys: ["temp_url_sig"] }); // as object storage does
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  const err = await new Transport({
    service: "t",
    endpoint: `http://127.0.0.1:${port}`,
    clock: fakeClock(),
    retry: { maxAttempts: 1 },
    authHeaders: () => ({ "x-auth-token": "tok-SECRET-1234" }),
  })
    .request({
      operation: "Get",
      method: "GET",
      path: "/o",
      query: { temp_url_sig: "deadbeef0123", temp_url_expires: 1 },
      idempotent: true,
      action: "reading with tok-SECRET-1234",
    })
    .catch((e) => e);
  expect(isTransportError(err)).toBe(true);
  expect(err.cause).toBeDefined();
  for (const text of [JSON.stringify(err), util.inspect(err, { depth: 10 }), String(err.stack)]) {
    expect(text).not.toContain("deadbeef0123");
    expect(text).not.toContain("tok-SECRET-1234");
  }
});
