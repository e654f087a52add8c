/**
 * Redaction: what client/core hides by itself (only what is generic to HTTP), what services register,
 * and errors redacted in every field, however deep.
 */
import * as util from "node:util";
import { isSecretHeader, redactError, redactHeaders, redactText, registerSecrets, REDACTED } from "../../client/core";

test("client/core knows no service: alone it hides only generic credential headers", () => {
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

  await import("../../client/objectstorage");
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

test("redactError covers every string field, nested objects and arrays, and the cause chain, without looping on cycles", () => {
  const root = new Error("outer uses tok-SECRET-9999") as Error & Record<string, unknown>;
  const inner = new Error("inner failed on /x?sig=zzz999") as Error & Record<string, unknown>;
  inner.cause = { detail: "deep tok-SECRET-9999", list: ["tok-SECRET-9999"] };
  root.cause = inner;
  root.apiMessage = "token tok-SECRET-9999 rejected";
  root.path = "/v1/a?sig=zzz999";
  root.self = root;
  redactError(root, ["tok-SECRET-9999"]);
  for (const text of [JSON.stringify({ ...root, self: undefined }), util.inspect(root, { depth: 10 }), String(root.stack), String(inner.stack)]) {
    expect(text).not.toContain("tok-SECRET-9999");
    expect(text).not.toContain("zzz999");
  }
  expect(root.apiMessage).toBe(`token ${REDACTED} rejected`);
  expect(root.path).toBe(`/v1/a?sig=${REDACTED}`);
});

test("a secret is redacted in every form a service may echo it in: as itself, Base64 (padded or not, URL-safe), URL-encoded, JSON-escaped", () => {
  const secret = 'Pw "quoted" & +/?';
  const forms = [
    secret,
    Buffer.from(secret).toString("base64"),
    Buffer.from(secret).toString("base64").replace(/=+$/, ""),
    Buffer.from(secret).toString("base64url"),
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
  ];
  for (const form of forms) {
    const text = `refused input ${form} (400)`;
    expect([form, redactText(text, [secret])]).toEqual([form, "refused input [redacted] (400)"]);
  }
  const err = redactError(new Error(`echo: {"input":"${Buffer.from(secret).toString("base64")}"}`), [secret]);
  expect(err.message).toBe('echo: {"input":"[redacted]"}');
});
