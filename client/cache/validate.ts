/**
 * The cache rules that need no network, one implementation each (spec 02 §4, §8): the provider's
 * `check` applies them through its zod schemas (provider/cache), the client before an update or a
 * parameter change. Every function returns all failures it finds (never only the first), each with
 * the property path, so one preview shows everything to fix. An empty list means valid.
 *
 * Where the spec states a rule for instance sets only and is silent for clusters (names,
 * descriptions), the same rule is applied to both; docs/api-assumptions.md lists each such reading.
 */

import type { BackupSchedule, ModifyParameterGroupInput, Ref, UpdateClusterInput } from "./types";

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

function intIn(value: unknown, min: number, max: number, property: string): ValidationFailure[] {
  if (typeof value !== "number" || !Number.isInteger(value)) return [{ property, reason: `must be an integer from ${min} to ${max}` }];
  if (value < min || value > max) return [{ property, reason: `must be from ${min} to ${max} (got ${value})` }];
  return [];
}

function required(value: unknown, property: string): ValidationFailure[] {
  if (typeof value !== "string" || value.trim() === "") return [{ property, reason: "is required" }];
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
 * a retention of at least one day (the spec gives no cluster range, §8). With `allowDisable`
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

/** Update a cluster or an instance set (§4.2, §4.3: the same optional fields). */
export function validateUpdateInput(input: UpdateClusterInput, owner: ScheduleOwner): ValidationFailure[] {
  const out = [...validateDescription(input.description), ...validateBackupSchedule(input.backupSchedule, owner, { allowDisable: true })];
  if (input.parameterGroupId !== undefined && (typeof input.parameterGroupId !== "string" || input.parameterGroupId.trim() === "")) {
    out.push({ property: "parameterGroupId", reason: "must not be empty (omit it to keep the current group)" });
  }
  if (input.securityGroups !== undefined) out.push(...validateRefs(input.securityGroups, "securityGroups", { nonEmpty: true }));
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
