/** Key management routes (spec 03 A.4): POST /api/v1/keys/{key_id}/..., X-Auth-Token, the envelope. */
import { BadRequest } from "../core/errors";
import { jsonResponse, type ApiResponse, type RequestContext, type RouteDefinition } from "../core/http";
import { caller, jsonObjectBody } from "../core/input";
import type { KmsBackend } from "./backend";

const project = (ctx: RequestContext): string => caller(ctx, "token", "Key management").projectId;
const body = (ctx: RequestContext, optional = false): Record<string, unknown> => jsonObjectBody(ctx, { optional, mediaTypes: ["application/json"] });

function field(b: Record<string, unknown>, k: string, required: boolean): string | undefined {
  const v = b[k];
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string") throw new BadRequest(`${k}: a string is required.`);
  return v;
}

/** The envelope of every answer: `{code, message, data, requestId}`. */
const envelope = (ctx: RequestContext, data: unknown): ApiResponse => jsonResponse(200, { code: "SUCCESS", message: "OK", data, requestId: ctx.requestId });

export function kmsRoutes(be: KmsBackend): RouteDefinition[] {
  const r = (suffix: string, operation: string, handler: (ctx: RequestContext, projectId: string, keyId: string) => unknown): RouteDefinition => ({
    methods: ["POST"],
    path: `/api/v1/keys/:keyId${suffix}`,
    operation,
    handler: (ctx) => envelope(ctx, handler(ctx, project(ctx), ctx.params.keyId!)),
  });
  return [
    r("/data-key", "GenerateDataKey", (ctx, p, k) => (body(ctx, true), be.dataKey(p, k))),
    r("/encrypt", "Encrypt", (ctx, p, k) => {
      const b = body(ctx);
      return be.encrypt(p, k, field(b, "input", true)!, field(b, "aad", false));
    }),
    r("/decrypt", "Decrypt", (ctx, p, k) => {
      const b = body(ctx);
      return { plaintext: be.decrypt(p, k, field(b, "ciphertext", true)!, field(b, "aad", false)) };
    }),
    r("/sign", "Sign", (ctx, p, k) => ({ signature: be.sign(p, k, field(body(ctx), "content", true)!) })),
    r("/sign/verify", "VerifySignature", (ctx, p, k) => {
      const b = body(ctx);
      return be.verifySignature(p, k, field(b, "input", true)!, field(b, "output", true)!);
    }),
    r("/hmac", "CreateHmac", (ctx, p, k) => ({ hmac: be.hmac(p, k, field(body(ctx), "content", true)!) })),
    r("/hmac/verify", "VerifyHmac", (ctx, p, k) => {
      const b = body(ctx);
      return be.verifyHmac(p, k, field(b, "input", true)!, field(b, "output", true)!);
    }),
  ];
}
