/**
 * The key management client against a scripted loopback server: paths, headers and bodies on the
 * wire, the envelope read in each of the readings the spec allows, sizes checked before any request,
 * and errors that carry the envelope's code, message and request id.
 */
import { isNotFound, resolveSettings, type Clock } from "../../client/core";
import { KmsClient, keyVersionOf } from "../../client/kms";
import { rejection } from "../support/assertions";
import { jsonReply, useScriptedServer } from "../support/servers/scripted";

const srv = useScriptedServer();
const clock: Clock = { now: () => 0, random: () => 0, sleep: async () => undefined };
const TOKEN = "tok-KMS-SECRET-1";
const client = () =>
  new KmsClient({
    settings: resolveSettings({ authToken: TOKEN, endpoints: { kms: `${srv.origin}/kms` }, retry: { maxAttempts: 2 } }, () => undefined, {}),
    clock,
  });
const ok = (data: unknown) => jsonReply(200, { code: "SUCCESS", message: "ok", data, requestId: "req-1" });

test("encrypt: POST /api/v1/keys/{id}/encrypt with the token, input and aad; the key version from data.version", async () => {
  srv.route = () => ok({ ciphertext: "kms:3:AAAA", version: 3 });
  expect(await client().encrypt("key/1", { input: "hello", aad: "ctx" })).toEqual({ ciphertext: "kms:3:AAAA", version: 3 });
  const r = srv.seen[0]!;
  expect([r.method, r.url]).toEqual(["POST", "/kms/api/v1/keys/key%2F1/encrypt"]);
  expect(r.headers["x-auth-token"]).toBe(TOKEN);
  expect(r.headers["content-type"]).toBe("application/json");
  expect(JSON.parse(r.body)).toEqual({ input: "hello", aad: "ctx" });
});

test("encrypt: without data.version the version is read from the ciphertext prefix; without both it is a format error", async () => {
  srv.route = () => ok({ ciphertext: "kms:7:BBBB" });
  expect(await client().encrypt("k", { input: "x" })).toEqual({ ciphertext: "kms:7:BBBB", version: 7 });
  expect(JSON.parse(srv.seen[0]!.body)).toEqual({ input: "x" });
  srv.route = () => ok({ ciphertext: "opaque" });
  expect((await rejection(client().encrypt("k", { input: "x" }))).message).toMatch(/gives no key version/);
});

test("data key, decrypt, sign, HMAC: each operation's path, body and answer", async () => {
  const answers: Record<string, unknown> = {
    "/kms/api/v1/keys/k/data-key": { plaintext: "cGxhaW4=", ciphertext: "kms:2:CCCC" },
    "/kms/api/v1/keys/k/decrypt": { plaintext: "hello" },
    "/kms/api/v1/keys/k/sign": { signature: "c2ln" },
    "/kms/api/v1/keys/k/hmac": { hmac: "aG1hYw==" },
  };
  srv.route = (r) => ok(answers[r.url]);
  const c = client();
  expect(await c.generateDataKey("k")).toEqual({ plaintext: "cGxhaW4=", ciphertext: "kms:2:CCCC", keyVersion: 2 });
  expect(await c.decrypt("k", { ciphertext: "kms:2:CCCC", aad: "ctx" })).toBe("hello");
  expect(await c.sign("k", "aGVsbG8=")).toBe("c2ln");
  expect(await c.createHmac("k", "aGVsbG8=")).toBe("aG1hYw==");
  expect(srv.seen.map((s) => [s.url, s.body])).toEqual([
    ["/kms/api/v1/keys/k/data-key", "{}"],
    ["/kms/api/v1/keys/k/decrypt", JSON.stringify({ ciphertext: "kms:2:CCCC", aad: "ctx" })],
    ["/kms/api/v1/keys/k/sign", JSON.stringify({ content: "aGVsbG8=" })],
    ["/kms/api/v1/keys/k/hmac", JSON.stringify({ content: "aGVsbG8=" })],
  ]);
});

test("verify answers are read in every shape the spec allows: data boolean, bare boolean, data.result", async () => {
  for (const [body, expected] of [
    [{ code: "SUCCESS", data: true }, true],
    [{ code: "SUCCESS", data: false }, false],
    [true, true],
    [false, false],
    [{ data: { result: true } }, true],
    [{ data: { valid: false } }, false],
  ] as const) {
    srv.route = () => jsonReply(200, body);
    expect(await client().verifySignature("k", { input: "aGVsbG8=", output: "c2ln" })).toBe(expected);
    expect(await client().verifyHmac("k", { input: "aGVsbG8=", output: "aG1hYw==" })).toBe(expected);
  }
  expect(srv.seen.slice(0, 2).map((s) => s.url)).toEqual(["/kms/api/v1/keys/k/sign/verify", "/kms/api/v1/keys/k/hmac/verify"]);
  srv.route = () => jsonReply(200, { data: "yes" });
  expect((await rejection(client().verifyHmac("k", { input: "aGVsbG8=", output: "x" }))).message).toMatch(/no boolean result/);
});

test("sizes are checked before any request: 4 KB input, 64 KB AAD, 4 KB decoded sign/HMAC content, Base64 shape", async () => {
  srv.route = () => ok({ ciphertext: "kms:1:A", version: 1 });
  const c = client();
  await c.encrypt("k", { input: "é".repeat(2048) });
  expect(srv.seen).toHaveLength(1);
  const cases: [Promise<unknown>, RegExp][] = [
    [c.encrypt("k", { input: "é".repeat(2049) }), /input is 4098 bytes; the key management service accepts at most 4096 bytes/],
    [c.encrypt("k", { input: "x", aad: "a".repeat(65537) }), /aad is 65537 bytes; the key management service accepts at most 65536 bytes/],
    [c.decrypt("k", { ciphertext: "x", aad: "a".repeat(65537) }), /aad is 65537 bytes/],
    [c.sign("k", Buffer.alloc(4097).toString("base64")), /content is 4097 bytes; the key management service accepts at most 4096 bytes/],
    [c.createHmac("k", "not base64!"), /content must be Base64 text/],
    [c.verifyHmac("k", { input: Buffer.alloc(4097).toString("base64"), output: "x" }), /input is 4097 bytes/],
    [c.encrypt("", { input: "x" }), /the key id must not be empty/],
  ];
  for (const [p, re] of cases) expect((await rejection(p)).message).toMatch(re);
  expect(srv.seen).toHaveLength(1);
});

test("errors carry the envelope's code, message and request id, say what was being done, and never the token", async () => {
  srv.route = () => jsonReply(404, { code: "KeyNotFound", message: `no key k (token ${TOKEN})`, data: null, requestId: "req-404" });
  const err = await rejection(client().decrypt("k", { ciphertext: "kms:1:A" }));
  expect(isNotFound(err)).toBe(true);
  expect(err).toMatchObject({ apiCode: "KeyNotFound", requestId: "req-404", status: 404 });
  expect(err.message).toMatch(/^decrypting with KMS key "k"/);
  expect(err.message).not.toContain(TOKEN);
});

test("every operation may be repeated: a 500 is retried (no operation changes state in the service)", async () => {
  let n = 0;
  srv.route = () => (++n === 1 ? jsonReply(500, { code: "Internal", message: "try later" }) : ok({ signature: "c2ln" }));
  expect(await client().sign("k", "aGVsbG8=")).toBe("c2ln");
  expect(srv.seen).toHaveLength(2);
});

test("keyVersionOf reads <prefix>:<version>", () => {
  expect(keyVersionOf("kms:12:abc")).toBe(12);
  expect(keyVersionOf("kms:3")).toBe(3);
  expect(keyVersionOf("abc")).toBeUndefined();
  expect(keyVersionOf("kms:v2:abc")).toBeUndefined();
});
