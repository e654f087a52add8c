/**
 * Generated malformed requests for every route of the local cloud's key management service (each
 * operation on a key of the type it takes): each gets a 4xx with an error body, never a 5xx, and
 * the local cloud keeps answering. What is generated and what each request must get:
 * tests/support/malformed/requests.ts; the run: tests/support/malformed/clouds.ts.
 */
import { malformedClouds, malformedTitle, PROJECT } from "../support/malformed/clouds";
import { fieldsOf, route, type Field, type Json, type Route, type Service } from "../support/malformed/requests";

const fuzz = malformedClouds();
const { exists } = fuzz;

const kmsRoute = (op: string, suffix: string, key: string, body: () => Json, fields: Field[]): Route =>
  route(op, `POST /api/v1/keys/{${key}}${suffix}`, "token", { json: body, fields, media: ["application/json"] });
const kms: Service = {
  name: "key management",
  key: "kms",
  base: () => fuzz.cloud.endpoints.kms!,
  async ensure(i) {
    for (const [slot, type] of [
      ["sym", "symmetric"],
      ["asym", "asymmetric"],
      ["mac", "mac"],
    ] as const) {
      i[slot] = `fz-${slot}`;
      if (!exists("kms", "key", i[slot])) fuzz.cloud.control.patchResource("kms", "key", i[slot], { projectId: PROJECT, type });
    }
  },
  routes: [
    kmsRoute("GenerateDataKey", "/data-key", "sym", () => ({}), []),
    kmsRoute("Encrypt", "/encrypt", "sym", () => ({ input: "hello", aad: "ctx" }), fieldsOf({ input: "string", aad: "string?" })),
    kmsRoute("Decrypt", "/decrypt", "sym", () => ({ ciphertext: "kms:1:AAAA" }), fieldsOf({ ciphertext: "string" })),
    kmsRoute("Sign", "/sign", "asym", () => ({ content: "aGVsbG8=" }), fieldsOf({ content: "string" })),
    kmsRoute("VerifySignature", "/sign/verify", "asym", () => ({ input: "aGVsbG8=", output: "1:AAAA" }), fieldsOf({ input: "string", output: "string" })),
    kmsRoute("CreateHmac", "/hmac", "mac", () => ({ content: "aGVsbG8=" }), fieldsOf({ content: "string" })),
    kmsRoute("VerifyHmac", "/hmac/verify", "mac", () => ({ input: "aGVsbG8=", output: "AAAA" }), fieldsOf({ input: "string", output: "string" })),
  ],
};

describe(kms.name, () => {
  test(malformedTitle(kms), () => fuzz.run(kms));
});
