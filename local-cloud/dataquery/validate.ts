/**
 * Request bodies of spec 03 B.4, parsed and checked before anything changes (routes call these).
 * Unknown fields are ignored; a field of the wrong type is a 400 naming it.
 */
import { z } from "zod";
import { parseWith } from "../core/input";

/** Data source and database names: lower-case letters, digits and `_`. */
export const NAME = /^[a-z0-9_]{3,72}$/;

const required = (what: string) => z.string({ error: `${what} is required` }).min(1, `${what} is required`);

const runQuery = z.looseObject({
  query: z
    .string({ error: "the SQL text is required" })
    .refine((q) => q.trim() !== "", "the SQL text is required")
    .refine((q) => q.length <= 1_000_000, "at most 1000000 characters"),
  // The field table nests bucketName and path under resultConfig; one sample puts them at the top level.
  resultConfig: z
    .looseObject({ bucketName: z.string({ error: "a string" }).optional(), path: z.string({ error: "a string" }).optional() }, { error: "an object" })
    .optional(),
  bucketName: z.string({ error: "a string" }).optional(),
  path: z.string({ error: "a string" }).optional(),
  reuseConfig: z
    .looseObject({ reuse: z.boolean({ error: "a boolean" }).optional(), maxReuseAge: z.number({ error: "an integer" }).optional() }, { error: "an object" })
    .optional(),
});

export interface RunQueryInput {
  sql: string;
  bucketName: string;
  path: string;
  /** Minutes a stored result may be reused, when reuse is on. */
  reuse?: number;
}

export function parseRunQuery(raw: unknown): RunQueryInput {
  const b = parseWith(runQuery, raw);
  const bucketName = b.resultConfig?.bucketName ?? b.bucketName;
  const reuse = b.reuseConfig?.reuse === true ? b.reuseConfig.maxReuseAge : undefined;
  const checked = parseWith(
    z.object({
      bucketName: required("resultConfig.bucketName"),
      reuse: z.number().int().min(1).max(1440).optional(),
    }),
    { bucketName, reuse: b.reuseConfig?.reuse === true ? (reuse ?? Number.NaN) : undefined },
  );
  return {
    sql: b.query,
    bucketName: checked.bucketName,
    path: b.resultConfig?.path ?? b.path ?? "",
    ...(checked.reuse !== undefined ? { reuse: checked.reuse } : {}),
  };
}

const createSource = z
  .looseObject({
    name: z.string({ error: "a string is required" }).regex(NAME, "3 to 72 lower-case letters, digits or underscores"),
    type: z.enum(["MYSQL", "POSTGRESQL"], { error: "MYSQL or POSTGRESQL" }),
    scope: z.enum(["PRIVATE", "PUBLIC"], { error: "PRIVATE or PUBLIC" }),
    description: z.string({ error: "a string" }).max(1000).optional(),
    instanceId: required("instanceId").max(256),
    username: required("username").max(256),
    password: required("password")
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, "must be Base64-encoded")
      .max(4096),
    databaseName: z.string({ error: "a string" }).max(256).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.type === "POSTGRESQL" && !b.databaseName) ctx.addIssue({ code: "custom", path: ["databaseName"], message: "required for PostgreSQL" });
  });

export type CreateSourceInput = z.infer<typeof createSource>;

export const parseCreateSource = (raw: unknown): CreateSourceInput => parseWith(createSource, raw);
