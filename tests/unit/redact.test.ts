/**
 * Redaction: what sdk/core hides by itself (only what is generic to HTTP) and what services register.
 */
import { isSecretHeader, redactHeaders, redactText, registerSecrets, REDACTED } from "../../sdk/core";

test("sdk/core knows no service: alone it hides only generic credential headers", () => {
  expect(isSecretHeader("Authorization")).toBe(true);
  expect(isSecretHeader("x-auth-token")).toBe(false);
  expect(redactText("/v1/a/b?temp_url_sig=abcdef&temp_url_expires=1", [])).toBe("/v1/a/b?temp_url_sig=abcdef&temp_url_expires=1");
});

test("a service registers its secret headers, query keys and private header prefixes; object storage registers its own", async () => {
  registerSecrets({ headers: ["Credential-Secret"], queryKeys: ["sig"], privateHeaderPrefixes: ["x-thing-meta-"] });
  expect(isSecretHeader("credential-secret")).toBe(true);
  expect(redactHeaders({ "Credential-Secret": "s3cr3t", "Credential-ID": "id-1", "X-Thing-Meta-Color": "blue", accept: "a/b" })).toEqual({
    "Credential-Secret": REDACTED,
    "Credential-ID": "id-1",
    "X-Thing-Meta-Color": REDACTED,
    accept: "a/b",
  });
  expect(redactText("GET /x?a=1&sig=abc123 and /y?sig=def456", [])).toBe(`GET /x?a=1&sig=${REDACTED} and /y?sig=${REDACTED}`);

  await import("../../sdk/objectstorage");
  expect(isSecretHeader("X-Auth-Token")).toBe(true);
  expect(isSecretHeader("x-container-meta-temp-url-key")).toBe(true);
  expect(redactText("/v1/a/b?temp_url_sig=abcdef&temp_url_expires=1", [])).toBe(`/v1/a/b?temp_url_sig=${REDACTED}&temp_url_expires=1`);
  expect(redactHeaders({ "x-object-meta-password": "p", "x-container-meta-k": "v", "x-account-meta-k": "v", "x-object-manifest": "b/p" })).toEqual({
    "x-object-meta-password": REDACTED,
    "x-container-meta-k": REDACTED,
    "x-account-meta-k": REDACTED,
    "x-object-manifest": "b/p",
  });
});
