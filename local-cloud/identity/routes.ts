/** Identity routes (Keystone v3): `POST /v3/auth/tokens` with an application credential, `GET|HEAD /v3/auth/tokens` with X-Subject-Token. */
import { z } from "zod";
import { BadRequest } from "../core/errors";
import { header, jsonResponse, type RequestContext, type RouteDefinition } from "../core/http";
import { jsonObjectBody, parseWith } from "../core/input";
import type { IdentityBackend } from "./backend";
import { Unauthorized } from "./errors";

const authBody = z.object({
  auth: z.object({
    identity: z.object({
      methods: z.array(z.string()).refine((m) => m.includes("application_credential"), 'methods must include "application_credential"'),
      application_credential: z.object({ id: z.string().min(1), secret: z.string().min(1) }),
    }),
  }),
});

export function identityRoutes(be: IdentityBackend): RouteDefinition[] {
  return [
    {
      methods: ["POST"],
      path: "/v3/auth/tokens",
      operation: "IssueToken",
      handler: (ctx: RequestContext) => {
        const body = parseWith(authBody, jsonObjectBody(ctx, { mediaTypes: ["application/json"] }));
        const { id, secret } = body.auth.identity.application_credential;
        const token = be.issueToken(id, secret);
        return jsonResponse(201, be.body(token), { "X-Subject-Token": token.token });
      },
    },
    {
      methods: ["GET", "HEAD"],
      path: "/v3/auth/tokens",
      operation: "ValidateToken",
      handler: (ctx: RequestContext) => {
        if (ctx.presented.kind !== "valid" || ctx.presented.identity.kind !== "token") throw new Unauthorized();
        const subject = header(ctx, "x-subject-token");
        if (subject === undefined) throw new BadRequest("The X-Subject-Token header is required.");
        const t = be.validateToken(subject);
        return jsonResponse(200, be.body(t), { "X-Subject-Token": t.token });
      },
    },
  ];
}
