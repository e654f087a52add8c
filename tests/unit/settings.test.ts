import { resolveSettings, redactText, redactHeaders, registerSecrets, DEFAULT_REGION, endpointOf, transportFor } from "../../client/core";

test("explicit options beat stack config, which beats the environment", () => {
  const env = { KRCLOUD_REGION: "env-region", KRCLOUD_AUTH_TOKEN: "env-token", KRCLOUD_PROJECT_ID: "env-proj", KRCLOUD_CREDENTIAL_ID: "env-id" };
  const config = (k: string) => ({ region: "cfg-region", authToken: "cfg-token" })[k];
  const s = resolveSettings({ region: "explicit-region" }, config, env);
  expect(s.region).toBe("explicit-region");
  expect(s.authToken).toBe("cfg-token");
  expect(s.projectId).toBe("env-proj");
  expect(s.credentialId).toBe("env-id");
});

test("defaults: region kr-central-2 and no endpoint at all: the local cloud is never implied", () => {
  const s = resolveSettings({ authToken: "real-token-1234" }, () => undefined, {});
  expect(s.region).toBe(DEFAULT_REGION);
  expect(s.region).toBe("kr-central-2");
  expect(s.endpoints).toEqual({});
  expect(() => endpointOf(s, "objectstorage")).toThrow(
    "no endpoint for the objectstorage service: set krcloud:objectstorageEndpoint (or KRCLOUD_OBJECTSTORAGE_ENDPOINT); to use a local cloud, set krcloud:localCloudUrl (or KRCLOUD_LOCAL_CLOUD_URL)",
  );
  // A client is never built against an implied endpoint, so no request (and no token) leaves.
  expect(() => transportFor("cache", { settings: s })).toThrow(/krcloud:cacheEndpoint/);
});

test("a local cloud URL puts every service under its prefix", () => {
  const s = resolveSettings({}, (k) => (k === "localCloudUrl" ? "http://127.0.0.1:8790/" : undefined), {});
  expect(s.endpoints.objectstorage).toBe("http://127.0.0.1:8790/object-storage");
  expect(s.endpoints.cache).toBe("http://127.0.0.1:8790/cache");
  expect(endpointOf(s, "kms")).toBe("http://127.0.0.1:8790/kms");
});

test("plain http:// is refused for a host off this machine, accepted on loopback; https anywhere", () => {
  const at = (url: string) =>
    endpointOf(
      resolveSettings({ endpoints: { objectstorage: url } }, () => undefined, {}),
      "objectstorage",
    );
  expect(() => at("http://objectstorage.kr-central-2.example.com")).toThrow(
    /plain http:\/\/ to a host that is not this machine.*krcloud:objectstorageEndpoint/,
  );
  expect(() => at("http://10.0.0.5:8080")).toThrow(/unencrypted/);
  expect(() => at("ftp://127.0.0.1")).toThrow(/must be an http\(s\) URL/);
  expect(() => at("not a url")).toThrow(/is not a URL/);
  expect(at("https://objectstorage.kr-central-2.example.com")).toBe("https://objectstorage.kr-central-2.example.com");
  expect(at("http://127.0.0.1:8790/object-storage")).toBe("http://127.0.0.1:8790/object-storage");
  expect(at("http://localhost:8790")).toBe("http://localhost:8790");
  expect(at("http://[::1]:8790")).toBe("http://[::1]:8790");
});

test("per-service endpoints from config or env override the local cloud URL; trailing slashes dropped", () => {
  const s = resolveSettings({}, (k) => (k === "objectstorageEndpoint" ? "https://os.example/" : undefined), {
    KRCLOUD_LOCAL_CLOUD_URL: "http://127.0.0.1:9999",
    KRCLOUD_CACHE_ENDPOINT: "https://cache.example",
  });
  expect(s.endpoints.objectstorage).toBe("https://os.example");
  expect(s.endpoints.cache).toBe("https://cache.example");
  expect(s.endpoints.kms).toBe("http://127.0.0.1:9999/kms");
});

test("empty strings do not shadow lower-precedence sources", () => {
  const s = resolveSettings({ authToken: "" }, () => "", { KRCLOUD_AUTH_TOKEN: "env-token" });
  expect(s.authToken).toBe("env-token");
});

test("redaction removes secrets from text and credential headers, and temp URL signatures", () => {
  // Services register these names (client/objectstorage/secrets.ts; the access-key services theirs).
  registerSecrets({ headers: ["x-auth-token", "credential-secret"], queryKeys: ["temp_url_sig"] });
  expect(redactText("token abcd1234 and abcd1234 again", ["abcd1234"])).toBe("token [redacted] and [redacted] again");
  expect(redactText("/v1/a/b/c?temp_url_sig=deadbeef&temp_url_expires=1", [])).toBe("/v1/a/b/c?temp_url_sig=[redacted]&temp_url_expires=1");
  expect(redactHeaders({ "X-Auth-Token": "t", "Credential-Secret": "s", "content-type": "a/b" })).toEqual({
    "X-Auth-Token": "[redacted]",
    "Credential-Secret": "[redacted]",
    "content-type": "a/b",
  });
});
