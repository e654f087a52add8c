/**
 * Request bodies of spec 02 §4, parsed and checked before anything changes (routes call these; the
 * backend gets typed input). Unknown fields are ignored; a field of the wrong type is a 400 naming
 * it, never silently dropped.
 */
import { z } from "zod";
import { BadRequest } from "../core/errors";
import { parseWith } from "../core/input";
import type { CommonBody, CreateClusterBody, CreateInstanceSetBody, UpdateBody } from "./model";

const NAME = /^[a-z](?!.*--)[a-z0-9-]{2,18}[a-z0-9]$/;
const NAME_RULE = "4 to 20 lower-case letters, digits or '-', starting with a letter, ending with a letter or digit, no '--'";
const CRON_HOUR_ONLY = /^\* ([0-9]|1[0-9]|2[0-3]) \* \* \*$/;

const text = (what = "a non-empty string") => z.string({ error: `${what} is required` }).min(1, `${what} is required`);
const int = (lo: number, hi: number) =>
  z
    .number({ error: `an integer from ${lo} to ${hi} is required` })
    .int(`an integer from ${lo} to ${hi}`)
    .min(lo)
    .max(hi);
const ref = z.looseObject({ id: z.string({ error: "an id (string) is required" }) });
const refs = () => z.array(ref, { error: "a list of {id} is required" }).max(100);
const assignment = z.looseObject({
  primary: z.looseObject({ id: z.string({ error: "required" }) }, { error: "{id} is required" }),
  replicas: refs(),
});
const description = z
  .string({ error: "a string is required" })
  .max(100, "at most 100 characters")
  .regex(/^[^\r\n]*$/, "no line breaks");
const backupSchedule = (cron: z.ZodString) =>
  z.looseObject(
    { cron, retentionLimit: z.number({ error: "an integer number of days" }).int().min(1).max(3650).optional() },
    { error: "{cron, retentionLimit?} is required" },
  );
const fiveFields = z
  .string({ error: "a 5-field cron expression is required" })
  .refine((c) => c.trim().split(/\s+/).length === 5, "a 5-field cron expression is required");
const user = z.looseObject(
  { name: z.string({ error: "a string is required" }), password: z.string({ error: "a string" }).optional() },
  { error: "{name, password} is required" },
);
const restoreSource = z
  .looseObject(
    {
      backupName: text().optional(),
      // The spec spells it backupName and backupNames: either is read.
      backupNames: text().optional(),
      files: z
        .array(z.string().regex(/^[^/]+\/.+/, "a bucket/folder/.../file path"), { error: "a list of bucket/folder/.../file paths is required" })
        .min(1)
        .max(100)
        .optional(),
    },
    { error: "an object is required" },
  )
  .transform((rs, ctx) => {
    const backupName = rs.backupName ?? rs.backupNames;
    if ((backupName === undefined) === (rs.files === undefined)) {
      ctx.addIssue({ code: "custom", message: "exactly one of backupName and files is required" });
      return z.NEVER;
    }
    return backupName !== undefined ? { backupName } : { files: rs.files! };
  });

const common = {
  description: description.min(1, "must not be empty").optional(),
  version: text(),
  port: int(2000, 50000),
  flavorId: text(),
  parameterGroupId: text(),
  subnets: refs(),
  subnetAssignments: z.array(assignment, { error: "a list is required" }).max(12),
  securityGroups: refs(),
  tlsEnabled: z.boolean({ error: "a boolean" }).optional(),
  user: user.optional(),
  restoreSource: restoreSource.optional(),
};

const createCluster = z.looseObject({
  ...common,
  name: text().regex(NAME, NAME_RULE),
  backupSchedule: backupSchedule(fiveFields).optional(),
  shardCount: int(1, 12),
  nodeCountPerShard: int(1, 6),
});

const createInstanceSet = z.looseObject({
  ...common,
  instanceSetName: text().regex(NAME, NAME_RULE),
  projectId: text(),
  backupSchedule: z
    .looseObject(
      {
        cron: z.string({ error: "a string is required" }).refine((c) => CRON_HOUR_ONLY.test(c.trim()), 'only the hour is settable (e.g. "* 3 * * *")'),
        retentionLimit: z.number({ error: "an integer number of days" }).int().min(1, "1 to 35 days").max(35, "1 to 35 days").optional(),
      },
      { error: "{cron, retentionLimit?} is required" },
    )
    .optional(),
  replicas: int(1, 6),
  recoveryEnabled: z.boolean({ error: "a boolean is required" }),
});

const update = z.looseObject({
  description: description.optional(),
  parameterGroupId: text().optional(),
  securityGroups: refs().optional(),
  // An empty cron turns automatic backups off.
  backupSchedule: backupSchedule(
    z
      .string({ error: "a string is required (empty turns backups off)" })
      .refine((c) => c === "" || c.trim().split(/\s+/).length === 5, "a 5-field cron expression, or empty"),
  ).optional(),
});

/** The subnets of the assignments must be among `subnets`. */
function checkAssignments(b: Pick<CommonBody, "subnets" | "subnetAssignments">): void {
  const allowed = new Set(b.subnets.map((s) => s.id));
  b.subnetAssignments.forEach((a, i) => {
    for (const s of [a.primary, ...a.replicas]) if (!allowed.has(s.id)) throw new BadRequest(`subnetAssignments[${i}]: subnet "${s.id}" is not in subnets.`);
  });
}

function commonBody(b: z.infer<typeof createCluster> | z.infer<typeof createInstanceSet>): Omit<CommonBody, "name"> {
  const body: Omit<CommonBody, "name"> = {
    description: b.description,
    version: b.version,
    port: b.port,
    flavorId: b.flavorId,
    parameterGroupId: b.parameterGroupId,
    subnets: b.subnets.map((s) => ({ id: s.id })),
    subnetAssignments: b.subnetAssignments.map((a) => ({ primary: { id: a.primary.id }, replicas: a.replicas.map((r) => ({ id: r.id })) })),
    securityGroups: b.securityGroups.map((s) => ({ id: s.id })),
    tlsEnabled: b.tlsEnabled === true,
    backupSchedule: b.backupSchedule
      ? { cron: b.backupSchedule.cron, ...(b.backupSchedule.retentionLimit !== undefined ? { retentionLimit: b.backupSchedule.retentionLimit } : {}) }
      : undefined,
    user: b.user ? { name: b.user.name, password: b.user.password ?? "" } : undefined,
    restoreSource: b.restoreSource,
  };
  checkAssignments(body);
  return body;
}

export function parseCreateCluster(raw: unknown): CreateClusterBody {
  const b = parseWith(createCluster, raw);
  const body = { ...commonBody(b), name: b.name, shardCount: b.shardCount, nodeCountPerShard: b.nodeCountPerShard };
  if (body.subnetAssignments.length !== b.shardCount) throw new BadRequest("subnetAssignments: one entry per shard is required.");
  body.subnetAssignments.forEach((a, i) => {
    if (a.replicas.length + 1 !== b.nodeCountPerShard) throw new BadRequest(`subnetAssignments[${i}].replicas: nodeCountPerShard - 1 replicas are required.`);
  });
  return body;
}

export function parseCreateInstanceSet(raw: unknown): CreateInstanceSetBody {
  const b = parseWith(createInstanceSet, raw);
  const body = { ...commonBody(b), instanceSetName: b.instanceSetName, replicas: b.replicas, recoveryEnabled: b.recoveryEnabled };
  if (body.subnetAssignments.length !== 1 || body.subnetAssignments[0]!.replicas.length + 1 !== b.replicas)
    throw new BadRequest("subnetAssignments: one entry holding the primary and replicas - 1 replicas is required.");
  if (b.recoveryEnabled && b.replicas < 2) throw new BadRequest("recoveryEnabled: high availability needs a replica.");
  return body;
}

export function parseUpdate(raw: unknown): UpdateBody {
  const b = parseWith(update, raw);
  return {
    description: b.description,
    parameterGroupId: b.parameterGroupId,
    securityGroups: b.securityGroups?.map((s) => ({ id: s.id })),
    backupSchedule: b.backupSchedule
      ? { cron: b.backupSchedule.cron, ...(b.backupSchedule.retentionLimit !== undefined ? { retentionLimit: b.backupSchedule.retentionLimit } : {}) }
      : undefined,
  };
}

const addShard = z.looseObject({
  nodeCount: int(1, 6),
  subnetAssignment: z.looseObject(assignment.shape, { error: "{primary: {id}, replicas: [{id}]} is required" }),
});
export const parseAddShard = (raw: unknown) => {
  const b = parseWith(addShard, raw);
  return {
    nodeCount: b.nodeCount,
    subnetAssignment: { primary: { id: b.subnetAssignment.primary.id }, replicas: b.subnetAssignment.replicas.map((r) => ({ id: r.id })) },
  };
};

const subnet = z.looseObject({ subnet: z.looseObject({ id: text() }, { error: "{id} is required" }) });
/** `{subnet: {id}}` of AddReplica and AddReplicaInstance. */
export const parseSubnet = (raw: unknown): string => parseWith(subnet, raw).subnet.id;

const applyMode = z.enum(["sequential", "parallel"], { error: "sequential or parallel" });
const modifyGroup = z.looseObject({
  description: description.optional(),
  parameters: z
    .array(
      z.looseObject({
        parameterKey: z.string({ error: "a string is required" }),
        parameterValue: z.union([z.string(), z.number(), z.boolean()], { error: "a value is required" }),
      }),
      {
        error: "a list of {parameterKey, parameterValue} is required",
      },
    )
    .max(100)
    .optional(),
  applyMode: applyMode.optional(),
});
export function parseModifyGroup(raw: unknown): { description?: string; parameters?: { parameterKey: string; parameterValue: string }[]; applyMode?: string } {
  const b = parseWith(modifyGroup, raw);
  return {
    ...(b.description !== undefined ? { description: b.description } : {}),
    ...(b.parameters ? { parameters: b.parameters.map((p) => ({ parameterKey: p.parameterKey, parameterValue: String(p.parameterValue) })) } : {}),
    ...(b.applyMode !== undefined ? { applyMode: b.applyMode } : {}),
  };
}

const createGroup = z.looseObject({ parameterGroupId: text(), name: text(), description: description.min(1, "must not be empty").optional() });
export const parseCreateGroup = (raw: unknown) => parseWith(createGroup, raw);

/** `{applyMode}` of reset (required) and rollback (optional). */
export const parseApplyMode = (raw: unknown, required: boolean): string | undefined =>
  parseWith(z.looseObject({ applyMode: required ? applyMode : applyMode.optional() }), raw).applyMode;

export const parsePrimary = (raw: unknown): string => parseWith(z.looseObject({ primaryId: text() }), raw).primaryId;
export const parseEnabled = (raw: unknown): boolean => parseWith(z.looseObject({ enabled: z.boolean({ error: "a boolean is required" }) }), raw).enabled;

const BACKUP_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const createBackup = z.looseObject({
  clusterId: text(),
  name: text().regex(BACKUP_NAME, "1 to 64 letters, digits, '-' or '_', starting with a letter"),
});
/** `{clusterId, name}` of an on-demand backup (the public API documentation; the name rule is a guess, docs/api-assumptions.md). */
export const parseCreateBackup = (raw: unknown): { clusterId: string; name: string } => {
  const b = parseWith(createBackup, raw);
  return { clusterId: b.clusterId, name: b.name };
};

/** `keepAutomaticBackups` of the deletes: absent, `true` or `false`. */
export function keepAutomaticBackups(value: string | null): string | null {
  if (value !== null && value !== "true" && value !== "false") throw new BadRequest("keepAutomaticBackups: true or false.");
  return value;
}
