/**
 * Request validation that needs no network, for the provider's `check` (seed 02 §4, §8). Every
 * function returns all failures it finds (never only the first), each with the property path the
 * provider reports, so one preview shows everything to fix. An empty list means valid.
 *
 * Where the seed states a rule for instance sets only and is silent for clusters (names,
 * descriptions), the same rule is applied to both; docs/api-assumptions.md lists each such reading.
 */

import type {
  AddShardInput,
  BackupSchedule,
  CreateClusterInput,
  CreateInstanceSetInput,
  CreateParameterGroupInput,
  DatabaseUser,
  ModifyParameterGroupInput,
  Ref,
  SubnetAssignment,
  UpdateClusterInput,
} from "./types";

export interface ValidationFailure {
  /** Property path of the input, e.g. `backupSchedule.cron` or `subnetAssignments[1].primary.id`. */
  property: string;
  reason: string;
}

export const NAME_MIN = 4;
export const NAME_MAX = 20;
export const DESCRIPTION_MAX = 100;
export const PORT_MIN = 2000;
export const PORT_MAX = 50000;
export const SHARDS_MIN = 1;
export const SHARDS_MAX = 12;
/** An instance set is a primary plus at most 5 replicas (§4.3, §8). */
export const REPLICAS_MAX = 5;
export const RETENTION_MIN = 1;
export const RETENTION_MAX = 35;
export const APPLY_MODES = ["sequential", "parallel"] as const;

/** One line per failure, for error messages. */
export function formatFailures(failures: readonly ValidationFailure[]): string {
  return failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
}

function required(value: unknown, property: string): ValidationFailure[] {
  if (typeof value !== "string" || value.trim() === "") return [{ property, reason: "is required" }];
  return [];
}

function intIn(value: unknown, min: number, max: number, property: string): ValidationFailure[] {
  if (typeof value !== "number" || !Number.isInteger(value)) return [{ property, reason: `must be an integer from ${min} to ${max}` }];
  if (value < min || value > max) return [{ property, reason: `must be from ${min} to ${max} (got ${value})` }];
  return [];
}

// ---------------------------------------------------------------------------------------------
// Names and descriptions

/**
 * Instance set name (§4.3, §8): 4 to 20 characters; lower-case letters, digits and `-`; starts
 * with a letter; ends with a letter or digit; no consecutive `-`; no spaces.
 */
export function validateInstanceSetName(name: unknown, property = "instanceSetName"): ValidationFailure[] {
  if (typeof name !== "string" || name === "") return [{ property, reason: "is required" }];
  const out: ValidationFailure[] = [];
  const len = [...name].length;
  if (len < NAME_MIN || len > NAME_MAX) out.push({ property, reason: `must be ${NAME_MIN} to ${NAME_MAX} characters long (got ${len})` });
  if (/\s/.test(name)) out.push({ property, reason: "must not contain spaces" });
  if (/[^a-z0-9\-\s]/.test(name)) out.push({ property, reason: "may contain only lower-case letters, digits and '-'" });
  if (!/^[a-z]/.test(name)) out.push({ property, reason: "must start with a lower-case letter" });
  if (!/[a-z0-9]$/.test(name)) out.push({ property, reason: "must end with a lower-case letter or a digit" });
  if (name.includes("--")) out.push({ property, reason: "must not contain consecutive '-'" });
  return out;
}

/** Cluster name: the seed states no rule (§4.2); the instance set rule is applied (same record, same list). */
export function validateClusterName(name: unknown, property = "name"): ValidationFailure[] {
  return validateInstanceSetName(name, property);
}

/** Emoji: presentation emoji, pictographs made emoji by U+FE0F, flags, keycaps. `©`, `™` alone are text. */
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Regional_Indicator}|\u20E3/u;

/** True when the text contains an emoji (see EMOJI). */
export function containsEmoji(text: string): boolean {
  return EMOJI.test(text);
}

/**
 * Description (§4.3, §8): at most 100 characters (counted as code points), no CR or LF, no emoji.
 * undefined is valid (optional); the empty string is valid (clears it).
 */
export function validateDescription(description: unknown, property = "description"): ValidationFailure[] {
  if (description === undefined) return [];
  if (typeof description !== "string") return [{ property, reason: "must be a string" }];
  const out: ValidationFailure[] = [];
  const len = [...description].length;
  if (len > DESCRIPTION_MAX) out.push({ property, reason: `must be at most ${DESCRIPTION_MAX} characters (got ${len})` });
  if (/[\r\n]/.test(description)) out.push({ property, reason: "must not contain line breaks (CR or LF)" });
  if (containsEmoji(description)) out.push({ property, reason: "must not contain emoji" });
  return out;
}

export function validatePort(port: unknown, property = "port"): ValidationFailure[] {
  return intIn(port, PORT_MIN, PORT_MAX, property);
}

export function validateShardCount(count: unknown, property = "shardCount"): ValidationFailure[] {
  return intIn(count, SHARDS_MIN, SHARDS_MAX, property);
}

/** Nodes of one shard or instance set, counting the primary: 1 to 1 + 5 replicas. */
export function validateNodeCount(count: unknown, property: string): ValidationFailure[] {
  return intIn(count, 1, 1 + REPLICAS_MAX, property);
}

// ---------------------------------------------------------------------------------------------
// Backup schedule

export type ScheduleOwner = "cluster" | "instance-set";

const CRON_FIELDS = [
  { name: "minute", min: 0, max: 59, names: [] as string[] },
  { name: "hour", min: 0, max: 23, names: [] as string[] },
  { name: "day of month", min: 1, max: 31, names: [] as string[] },
  { name: "month", min: 1, max: 12, names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] },
  { name: "day of week", min: 0, max: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

/** One standard cron field: `*`, `n`, `a-b`, lists, `/step`; month and weekday names. */
function cronFieldValid(field: string, spec: (typeof CRON_FIELDS)[number]): boolean {
  const value = (v: string): number | undefined => {
    if (/^\d+$/.test(v)) return Number(v);
    const i = spec.names.indexOf(v.toUpperCase());
    return i < 0 ? undefined : i + spec.min;
  };
  return field.split(",").every((item) => {
    const m = /^(\*|[^/-]+(?:-[^/-]+)?)(?:\/(\d+))?$/.exec(item);
    if (!m) return false;
    if (m[2] !== undefined && Number(m[2]) < 1) return false;
    if (m[1] === "*") return true;
    const [a, b] = m[1]!.split("-");
    const lo = value(a!);
    const hi = b === undefined ? lo : value(b);
    return lo !== undefined && hi !== undefined && lo >= spec.min && hi <= spec.max && lo <= hi;
  });
}

/** The cron of an instance set backup at `hour` KST (§4.3: only the hour is settable). */
export function backupCronForHour(hour: number): string {
  return `* ${hour} * * *`;
}

/**
 * Backup schedule (§4.2, §4.3). Instance sets: a 5-field cron whose hour is a plain number 0-23
 * and whose other fields are `*` (KST), retention 1 to 35 days. Clusters: a valid 5-field cron and
 * a retention of at least one day (the seed gives no cluster range, §8). With `allowDisable`
 * (updates), an empty cron is accepted: it turns backups off.
 */
export function validateBackupSchedule(
  schedule: BackupSchedule | null | undefined,
  owner: ScheduleOwner,
  o: { allowDisable?: boolean; property?: string } = {},
): ValidationFailure[] {
  const base = o.property ?? "backupSchedule";
  if (schedule === undefined || (schedule === null && o.allowDisable)) return [];
  if (schedule === null || typeof schedule !== "object") return [{ property: base, reason: "must be an object {cron, retentionLimit}" }];
  const out: ValidationFailure[] = [];
  const cronProp = `${base}.cron`;
  const cron = schedule.cron;
  if (typeof cron !== "string") out.push({ property: cronProp, reason: "is required" });
  else if (cron.trim() === "") {
    if (!o.allowDisable) out.push({ property: cronProp, reason: "must not be empty (omit backupSchedule to disable backups)" });
  } else {
    const fields = cron.trim().split(/\s+/);
    if (fields.length !== 5) out.push({ property: cronProp, reason: `must have 5 fields (got ${fields.length})` });
    else if (owner === "instance-set") {
      const hour = fields[1]!;
      if (!/^\d{1,2}$/.test(hour) || Number(hour) > 23)
        out.push({ property: cronProp, reason: `hour must be a number from 0 to 23 without special characters (got "${hour}")` });
      fields.forEach((f, i) => {
        if (i !== 1 && f !== "*") out.push({ property: cronProp, reason: `${CRON_FIELDS[i]!.name} must be '*' (only the hour is settable; times are KST)` });
      });
    } else {
      fields.forEach((f, i) => {
        if (!cronFieldValid(f, CRON_FIELDS[i]!)) out.push({ property: cronProp, reason: `invalid ${CRON_FIELDS[i]!.name} field "${f}"` });
      });
    }
  }
  if (schedule.retentionLimit !== undefined) {
    const rp = `${base}.retentionLimit`;
    if (owner === "instance-set") out.push(...intIn(schedule.retentionLimit, RETENTION_MIN, RETENTION_MAX, rp));
    else if (typeof schedule.retentionLimit !== "number" || !Number.isInteger(schedule.retentionLimit) || schedule.retentionLimit < 1) {
      out.push({ property: rp, reason: "must be a whole number of days, at least 1" });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Placement

function validateRefs(refs: unknown, property: string, o: { nonEmpty: boolean }): ValidationFailure[] {
  if (!Array.isArray(refs)) return [{ property, reason: "must be a list of {id}" }];
  const out: ValidationFailure[] = [];
  if (o.nonEmpty && refs.length === 0) out.push({ property, reason: "must list at least one" });
  refs.forEach((r: Ref, i) => out.push(...required(r?.id, `${property}[${i}].id`)));
  return out;
}

/**
 * Subnet assignments: every subnet used is listed in `subnets` (§4.3); with `entries`, exactly that
 * many assignments (clusters: one per shard, §4.2); with `replicasEach`, each lists that many
 * replicas; with `totalNodes`, primaries plus replicas over all entries add up to it.
 */
export function validateSubnetAssignments(
  subnets: readonly Ref[] | undefined,
  assignments: readonly SubnetAssignment[] | undefined,
  o: { entries?: number; replicasEach?: number; totalNodes?: number; property?: string } = {},
): ValidationFailure[] {
  const property = o.property ?? "subnetAssignments";
  if (!Array.isArray(assignments)) return [{ property, reason: "is required" }];
  const out: ValidationFailure[] = [];
  const allowed = new Set((subnets ?? []).map((s) => s?.id));
  if (o.entries !== undefined && assignments.length !== o.entries)
    out.push({ property, reason: `must have ${o.entries} entries, one per shard (got ${assignments.length})` });
  let total = 0;
  assignments.forEach((a, i) => {
    const p = `${property}[${i}]`;
    if (!a || typeof a !== "object") {
      out.push({ property: p, reason: "must be {primary: {id}, replicas: [{id}]}" });
      return;
    }
    const check = (id: unknown, pp: string) => {
      const missing = required(id, pp);
      if (missing.length) out.push(...missing);
      else if (subnets !== undefined && !allowed.has(id as string)) out.push({ property: pp, reason: `subnet "${id as string}" is not listed in subnets` });
    };
    check(a.primary?.id, `${p}.primary.id`);
    if (!Array.isArray(a.replicas)) out.push({ property: `${p}.replicas`, reason: "is required (may be empty)" });
    else {
      a.replicas.forEach((r: Ref, j: number) => check(r?.id, `${p}.replicas[${j}].id`));
      if (o.replicasEach !== undefined && a.replicas.length !== o.replicasEach) {
        out.push({ property: `${p}.replicas`, reason: `must list ${o.replicasEach} replica subnet(s) (got ${a.replicas.length})` });
      }
      total += 1 + a.replicas.length;
    }
  });
  if (o.totalNodes !== undefined && total !== o.totalNodes && out.length === 0) {
    out.push({ property, reason: `must place ${o.totalNodes} node(s) in total, primary included (got ${total})` });
  }
  return out;
}

function validateUser(user: DatabaseUser | undefined, property = "user"): ValidationFailure[] {
  if (user === undefined) return [];
  return [...required(user?.name, `${property}.name`), ...required(user?.password, `${property}.password`)];
}

/** Backup files for a restore (§4.3 variant 3): `bucket/folder/.../file`, at least bucket and file. */
export function validateRestoreFiles(files: unknown, property = "restoreSource.files"): ValidationFailure[] {
  if (!Array.isArray(files) || files.length === 0) return [{ property, reason: "must list at least one backup file" }];
  const out: ValidationFailure[] = [];
  files.forEach((f, i) => {
    const segs = typeof f === "string" ? f.split("/") : [];
    if (typeof f !== "string" || f.startsWith("/") || segs.length < 2 || segs.some((s) => s === "")) {
      out.push({ property: `${property}[${i}]`, reason: "must be an object storage path bucket/folder/.../file" });
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Whole inputs

/** Create (or restore) a cluster, §4.2. */
export function validateCreateClusterInput(input: CreateClusterInput): ValidationFailure[] {
  const out: ValidationFailure[] = [
    ...validateClusterName(input.name),
    ...validateDescription(input.description),
    ...required(input.version, "version"),
    ...validatePort(input.port),
    ...validateShardCount(input.shardCount),
    ...validateNodeCount(input.nodeCountPerShard, "nodeCountPerShard"),
    ...required(input.flavorId, "flavorId"),
    ...required(input.parameterGroupId, "parameterGroupId"),
    ...validateRefs(input.subnets, "subnets", { nonEmpty: true }),
    ...validateRefs(input.securityGroups, "securityGroups", { nonEmpty: true }),
    ...validateBackupSchedule(input.backupSchedule, "cluster"),
    ...validateUser(input.user),
  ];
  const countsOk = Number.isInteger(input.shardCount) && Number.isInteger(input.nodeCountPerShard);
  out.push(
    ...validateSubnetAssignments(
      input.subnets,
      input.subnetAssignments,
      countsOk ? { entries: input.shardCount, replicasEach: input.nodeCountPerShard - 1 } : {},
    ),
  );
  if (input.restoreSource !== undefined) out.push(...required(input.restoreSource?.backupName, "restoreSource.backupName"));
  return out;
}

/** Create (or restore) an instance set, §4.3, all three variants. */
export function validateCreateInstanceSetInput(input: CreateInstanceSetInput): ValidationFailure[] {
  const out: ValidationFailure[] = [
    ...validateInstanceSetName(input.instanceSetName),
    ...validateDescription(input.description),
    ...validateNodeCount(input.replicas, "replicas"),
    ...required(input.flavorId, "flavorId"),
    ...validateRefs(input.subnets, "subnets", { nonEmpty: true }),
    ...validateRefs(input.securityGroups, "securityGroups", { nonEmpty: true }),
    ...validateBackupSchedule(input.backupSchedule, "instance-set"),
    ...validateUser(input.user),
    ...required(input.parameterGroupId, "parameterGroupId"),
    ...validatePort(input.port),
    ...(input.projectId !== undefined ? required(input.projectId, "projectId") : []),
    ...required(input.version, "version"),
  ];
  if (typeof input.recoveryEnabled !== "boolean") out.push({ property: "recoveryEnabled", reason: "is required (true or false)" });
  else if (input.recoveryEnabled && Number.isInteger(input.replicas) && input.replicas < 2) {
    out.push({ property: "replicas", reason: "high availability (recoveryEnabled) needs at least one replica: replicas counts the primary, so at least 2" });
  }
  out.push(...validateSubnetAssignments(input.subnets, input.subnetAssignments, Number.isInteger(input.replicas) ? { totalNodes: input.replicas } : {}));
  const rs = input.restoreSource as Record<string, unknown> | undefined;
  if (rs !== undefined) {
    const hasName = "backupName" in (rs ?? {});
    const hasFiles = "files" in (rs ?? {});
    if (hasName === hasFiles) out.push({ property: "restoreSource", reason: "must have exactly one of backupName or files" });
    else if (hasName) out.push(...required(rs.backupName, "restoreSource.backupName"));
    else out.push(...validateRestoreFiles(rs.files));
  }
  return out;
}

/** Update a cluster or an instance set (§4.2, §4.3: the same optional fields). */
export function validateUpdateInput(input: UpdateClusterInput, owner: ScheduleOwner): ValidationFailure[] {
  const out = [...validateDescription(input.description), ...validateBackupSchedule(input.backupSchedule, owner, { allowDisable: true })];
  if (input.parameterGroupId !== undefined && (typeof input.parameterGroupId !== "string" || input.parameterGroupId.trim() === "")) {
    out.push({ property: "parameterGroupId", reason: "must not be empty (omit it to keep the current group)" });
  }
  if (input.securityGroups !== undefined) out.push(...validateRefs(input.securityGroups, "securityGroups", { nonEmpty: true }));
  return out;
}

/** Add a shard (§4.2): nodeCount counts the new shard's primary. */
export function validateAddShardInput(input: AddShardInput, subnets?: readonly Ref[]): ValidationFailure[] {
  const out = validateNodeCount(input.nodeCount, "nodeCount");
  if (input.subnetAssignment === undefined) return [...out, { property: "subnetAssignment", reason: "is required" }];
  const placement = validateSubnetAssignments(subnets, [input.subnetAssignment], {
    property: "subnetAssignment",
    ...(Number.isInteger(input.nodeCount) ? { replicasEach: input.nodeCount - 1 } : {}),
  });
  return [...out, ...placement.map((f) => ({ ...f, property: f.property.replace(/^subnetAssignment\[0\]/, "subnetAssignment") }))];
}

/** Parameter group create (§4.4); name and description rules follow the instance set's (not stated). */
export function validateCreateParameterGroupInput(input: CreateParameterGroupInput): ValidationFailure[] {
  const out = [...required(input.parameterGroupId, "parameterGroupId"), ...required(input.name, "name"), ...validateDescription(input.description)];
  if (typeof input.name === "string" && /[\r\n]/.test(input.name)) out.push({ property: "name", reason: "must not contain line breaks" });
  return out;
}

/** Parameter group modify (§4.4): applyMode is required when parameters change; keys unique. */
export function validateModifyParameterGroupInput(input: ModifyParameterGroupInput): ValidationFailure[] {
  const out = validateDescription(input.description);
  const entries = parameterEntries(input.parameters);
  if (entries.length > 0 && input.applyMode === undefined)
    out.push({ property: "applyMode", reason: "is required when modifying parameters (sequential or parallel)" });
  if (input.applyMode !== undefined && !(APPLY_MODES as readonly string[]).includes(input.applyMode)) {
    out.push({ property: "applyMode", reason: `must be sequential or parallel (got "${String(input.applyMode)}")` });
  }
  const seen = new Set<string>();
  entries.forEach(([k, v], i) => {
    if (typeof k !== "string" || k.trim() === "") out.push({ property: `parameters[${i}].parameterKey`, reason: "is required" });
    else if (seen.has(k)) out.push({ property: `parameters[${i}].parameterKey`, reason: `"${k}" is given more than once` });
    else seen.add(k);
    if (typeof v !== "string") out.push({ property: `parameters[${i}].parameterValue`, reason: "must be a string" });
  });
  return out;
}

/** The parameters of a modify as [key, value] pairs, from either the list or the map form. */
export function parameterEntries(p: ModifyParameterGroupInput["parameters"]): [string, string][] {
  if (p === undefined) return [];
  if (Array.isArray(p)) return p.map((s) => [s?.parameterKey, s?.parameterValue] as [string, string]);
  return Object.entries(p);
}
