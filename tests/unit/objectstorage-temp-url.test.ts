import { createHmac } from "node:crypto";
import { ObjectStorageClient, resolveTempUrl, signTempUrl } from "../../client/objectstorage";
import { resolveSettings } from "../../client/core";

/*
 * Known vector. Swift's tempurl middleware signs `{METHOD}\n{expires}\n{path}` with HMAC keyed by the
 * Temp-URL-Key and compares hex digests; the digest is chosen by the signature's length (64 hex
 * characters = SHA-256). The expected values below were computed outside this code base with
 * Python's hmac module (Swift's own language):
 *   hmac.new(b"mykey", b"GET\n1700000000\n/v1/AUTH_test/c/o", hashlib.sha256).hexdigest()
 * and the test recomputes the SHA-256 one with node's crypto over the explicit message, so the
 * message layout (newlines, decimal expiry, path as given) is pinned twice.
 */
const KEY = "mykey";
const EXPIRES = 1_700_000_000;
const PATH = "/v1/AUTH_test/c/o";
const SHA256 = "7d8e44a645aab88cf197df39a844fc98555dad169375805007f6e9b55a5c9370";
const SHA1 = "3994d403a1e371c61672cc49d49e3504805f4887";

test("signTempUrl matches the known HMAC-SHA256 vector", () => {
  const byHand = createHmac("sha256", KEY).update("GET\n1700000000\n/v1/AUTH_test/c/o").digest("hex");
  expect(byHand).toBe(SHA256);
  expect(signTempUrl({ key: KEY, method: "GET", expires: EXPIRES, path: PATH })).toBe(SHA256);
});

test("the digest can be chosen (sha1 for old Swift clusters)", () => {
  expect(signTempUrl({ key: KEY, expires: EXPIRES, path: PATH, digest: "sha1" })).toBe(SHA1);
});

test("every input changes the signature", () => {
  const base = signTempUrl({ key: KEY, expires: EXPIRES, path: PATH });
  expect(signTempUrl({ key: "other", expires: EXPIRES, path: PATH })).not.toBe(base);
  expect(signTempUrl({ key: KEY, expires: EXPIRES + 1, path: PATH })).not.toBe(base);
  expect(signTempUrl({ key: KEY, expires: EXPIRES, path: "/v1/AUTH_test/c/o2" })).not.toBe(base);
});

test("bad input is refused", () => {
  expect(() => signTempUrl({ key: "", expires: EXPIRES, path: PATH })).toThrow(/needs a key/);
  expect(() => signTempUrl({ key: KEY, expires: 1.5, path: PATH })).toThrow(/positive integer/);
  expect(() => signTempUrl({ key: KEY, expires: EXPIRES, path: "v1/x" })).toThrow(/must start with \//);
});

test("signedTempUrl signs the decoded /v1 path and encodes the URL", () => {
  const c = new ObjectStorageClient({
    settings: resolveSettings({ projectId: "AUTH_test", endpoints: { objectstorage: "http://127.0.0.1:8280" } }, () => undefined, {}),
  });
  const url = new URL(c.signedTempUrl("c", "dir/a b.txt", { tempUrlKey: KEY, expires: EXPIRES, filename: "x y.txt" }));
  expect(url.pathname).toBe("/v1/AUTH_test/c/dir/a%20b.txt");
  expect(url.searchParams.get("temp_url_expires")).toBe(String(EXPIRES));
  expect(url.searchParams.get("filename")).toBe("x y.txt");
  expect(url.searchParams.get("temp_url_sig")).toBe(signTempUrl({ key: KEY, expires: EXPIRES, path: "/v1/AUTH_test/c/dir/a b.txt" }));
});

test.each([
  [
    "a path relative to the base URL",
    "http://h:1/object-storage",
    "/v1/p/b/o?temp_url_sig=s&temp_url_expires=1",
    "http://h:1/object-storage/v1/p/b/o?temp_url_sig=s&temp_url_expires=1",
  ],
  ["a path that already carries the endpoint prefix", "http://h:1/object-storage", "/object-storage/v1/p/b/o?x=1", "http://h:1/object-storage/v1/p/b/o?x=1"],
  ["a path without leading slash", "http://h:1", "v1/p/b/o?x=1", "http://h:1/v1/p/b/o?x=1"],
  ["an absolute URL", "http://h:1/object-storage", "https://cdn.example/v1/p/b/o?x=1", "https://cdn.example/v1/p/b/o?x=1"],
])("resolveTempUrl: %s", (_name, endpoint, url, expected) => {
  expect(resolveTempUrl(endpoint, url)).toBe(expected);
});
