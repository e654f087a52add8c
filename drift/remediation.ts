/**
 * The two ways out of each drifted resource: revert (put the program's values back with a targeted
 * `pulumi up --refresh`) or accept (change the program to the cloud's values; for a deleted
 * resource, drop it from the program and the state). Every command that refreshes runs the program
 * (`--run-program`): the providers then read with the stack's configuration as it is now, not the
 * one the last up recorded in state (a rotated or corrected credential works at once).
 *
 * Only remedies that work are printed. A BucketFolder's drift is in its outputs (a changed, missing
 * or extra object), which no program sets: its remedies name the files of the folder and the inputs
 * that decide (`exclude`, `deleteExtraObjects`), on the resource the program declares (the folder,
 * or the StaticSite whose child it is). A program declares a krcloud component (a StaticSite), never
 * its children: a child's drift is accepted by the component's inputs that keep it, where the
 * component says which (provider/core/component.ts, `drift`), else by an ignore rule the line gives.
 */
import type { ComponentDrift } from "../provider/core/component";
import { findComponent } from "../provider/registry";
import { IGNORE_FILE } from "./ignore";
import type { Fix, ResourceResult } from "./model";
import { displayType } from "./analyze";
import { pathParts, SECRET, show, topKey } from "./values";

export interface FixContext {
  stack: string;
  /** The project directory as the user should pass it to `pulumi --cwd` (omitted: the current one). */
  cwd?: string;
  configFile?: string;
}

/** A word for a POSIX shell: left as is when safe, else single-quoted. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function pulumi(verb: string, ctx: FixContext, urn: string, extra: string[] = []): string {
  const args = ["pulumi", verb, "--stack", ctx.stack, ...extra, "--target"].map(shellQuote);
  // A URN is always quoted: one with a parent type holds `$`.
  args.push(`'${urn.replace(/'/g, `'\\''`)}'`);
  if (ctx.cwd) args.push("--cwd", shellQuote(ctx.cwd));
  if (ctx.configFile) args.push("--config-file", shellQuote(ctx.configFile));
  return args.join(" ");
}

/**
 * Adds `fix` to every drifted and deleted resource. `cloudInputs` holds each resource's inputs as
 * refresh read them (secrets masked), for the values to accept.
 */
export function addFixes(resources: readonly ResourceResult[], cloudInputs: ReadonlyMap<string, Record<string, unknown>>, ctx: FixContext): void {
  for (const r of resources) {
    const parent = parentComponent(r);
    if (parent !== undefined && r.type !== FOLDER) {
      r.fix = childFix(r, parent, cloudInputs.get(r.urn) ?? {}, ctx);
      continue;
    }
    if (r.status === "deleted") {
      r.fix = {
        revert: pulumi("up", ctx, r.urn, ["--refresh", "--run-program"]),
        accept: `remove "${r.name}" from the program, then drop it from the state: ${pulumi("refresh", ctx, r.urn, ["--run-program", "--yes"])}`,
      };
      continue;
    }
    if (r.status !== "drifted") continue;
    const cloud = cloudInputs.get(r.urn) ?? {};
    if (r.type === FOLDER) {
      r.fix = folderFix(r, cloud, ctx);
      continue;
    }
    const keys = [...new Set(r.properties.filter((p) => p.origin !== "program").map((p) => topKey(p.path)))];
    const acceptValues: Record<string, unknown> = {};
    for (const k of keys) acceptValues[k] = cloud[k];
    const parts = keys.map((k) =>
      acceptValues[k] === SECRET
        ? `${k}: the value the cloud has now (a secret: not shown, set it from your secret store)`
        : `${k}: ${show(acceptValues[k], 400)}`,
    );
    r.fix = {
      revert: pulumi("up", ctx, r.urn, ["--refresh", "--run-program"]),
      accept: `in the program, set ${r.name}'s ${parts.join("; ")}`,
      acceptValues,
    };
  }
}

const FOLDER = "krcloud:objectstorage:BucketFolder";

/** A krcloud component a resource is a child of: its type's short name, and its logical name where it says. */
interface Parent {
  kind: string;
  name?: string;
  drift?: ComponentDrift;
}

function parentComponent(r: ResourceResult): Parent | undefined {
  const types = (r.urn.split("::")[2] ?? "").split("$");
  if (types.length < 2) return undefined;
  const token = displayType(types[types.length - 2]!);
  const c = findComponent(token);
  if (c === undefined) return undefined;
  return { kind: token.split(":")[2] ?? token, name: c.drift?.ownerOf({ name: r.name, type: r.type }), drift: c.drift };
}

/** How a line names the component: `the StaticSite "www"`. */
function componentName(p: Parent, child: string): string {
  return p.name !== undefined ? `the ${p.kind} "${p.name}"` : `the ${p.kind} that declares "${child}"`;
}

/** The resource the program declares for a folder: the folder itself, or the component it is a child of. */
function declaredAs(r: ResourceResult): string {
  const parent = parentComponent(r);
  return parent === undefined ? `"${r.name}"` : componentName(parent, r.name);
}

/**
 * An ignore rule that accepts drift of `urn` (at `property`, or its deletion), as the line that
 * writes it into the ignore file: one YAML item of `rules:`, in JSON (which YAML reads).
 */
function ignoreRule(urn: string, property: string | undefined, reason: string): string {
  const rule = property === undefined ? { urn, reason } : { urn, property, reason };
  return `add to ${IGNORE_FILE} beside Pulumi.yaml (or the file --ignore-file names), under rules: - ${JSON.stringify(rule)}`;
}

/**
 * A component's child: revert is the targeted up (the component's program puts the child back as it
 * declares it); accept sets the component's inputs that keep the cloud's values, and for what no
 * input keeps (or a deleted child, which the component always declares) gives the ignore rule.
 */
function childFix(r: ResourceResult, parent: Parent, cloud: Record<string, unknown>, ctx: FixContext): Fix {
  const owner = componentName(parent, r.name);
  const revert = pulumi("up", ctx, r.urn, ["--refresh", "--run-program"]);
  if (r.status === "deleted")
    return { revert, accept: `${owner} declares "${r.name}": no program keeps it deleted; ${ignoreRule(r.urn, undefined, `${r.name} deleted, kept so`)}` };
  const keys = [...new Set(r.properties.filter((p) => p.origin !== "program").map((p) => topKey(p.path)))];
  const kept = parent.drift?.accept({ name: r.name, type: r.type, keys, cloud }) ?? {
    inputs: {},
    unkept: Object.fromEntries(keys.map((k) => [k, `no input of the ${parent.kind} is known to keep it`])),
  };
  const parts: string[] = [];
  const set = Object.entries(kept.inputs);
  // Each value whole (as JSON): the line is what the user writes.
  if (set.length > 0) parts.push(`in the program, set ${owner}'s ${set.map(([k, v]) => `${k}: ${show(v, Infinity)}`).join("; ")}`);
  for (const [k, why] of Object.entries(kept.unkept))
    parts.push(`${k} of "${r.name}": ${why}; ${ignoreRule(r.urn, k, `${k} of ${r.name} kept as the cloud has it`)}`);
  const acceptValues = Object.fromEntries(keys.map((k) => [k, cloud[k]]));
  return { revert, accept: parts.join(". "), acceptValues };
}

/**
 * A key as an exclude glob (node's matchesGlob, which takes no backslash escapes) that matches that
 * key: special characters in a class of their own; a brace as `[{}]`, and a leading `!` (negation) as
 * `?`, the nearest such a glob comes.
 */
export function literalGlob(key: string): string {
  return key
    .replace(/[*?[\]()+@]/g, "[$&]")
    .replace(/[{}]/g, "[{}]")
    .replace(/^!/, "?");
}

/**
 * A BucketFolder's remedies. An object the folder did not upload (`extraObjects`) is removed only
 * by `deleteExtraObjects`, and accepted by an exclude glob; a changed or missing object
 * (`manifest`) is put back by a targeted up, and accepted by making the folder's file what the
 * bucket holds. What the program can write is said on the resource it declares.
 */
function folderFix(r: ResourceResult, cloud: Record<string, unknown>, ctx: FixContext): Fix {
  const owner = declaredAs(r);
  const prefix = typeof cloud.prefix === "string" ? cloud.prefix : "";
  const folder = typeof cloud.path === "string" ? cloud.path : "the folder";
  const up = pulumi("up", ctx, r.urn, ["--refresh", "--run-program"]);
  const extra: string[] = [];
  const gone: string[] = [];
  const changed: string[] = [];
  const missing: string[] = [];
  for (const p of r.properties) {
    const [top, key] = pathParts(p.path);
    if (typeof key !== "string") continue;
    if (top === "extraObjects") (p.cloud === undefined ? gone : extra).push(key);
    else if (top === "manifest") (p.cloud === undefined ? missing : changed).push(key);
  }
  const rel = (k: string) => (k.startsWith(prefix) ? k.slice(prefix.length) : k);
  const file = (k: string) => `${folder.replace(/\/+$/, "")}/${rel(k)}`;
  const list = (keys: string[], f: (k: string) => string) => keys.map((k) => `"${f(k)}"`).join(", ");
  const reverts: string[] = [];
  const accepts: string[] = [];
  if (extra.length > 0) {
    if (cloud.deleteExtraObjects !== true)
      reverts.push(
        `in the program, set deleteExtraObjects: true on ${owner} (only that option deletes the objects under its prefix it did not upload: ${list(extra, (k) => k)})`,
      );
    accepts.push(`in the program, add ${list(extra, (k) => literalGlob(rel(k)))} to the exclude of ${owner} (keys it leaves out are not the folder's)`);
  }
  if (changed.length > 0)
    accepts.push(
      `make the folder's files what the bucket holds: put the objects' content into ${list(changed, file)} (the content type comes from the extension${parentComponent(r) === undefined ? " or contentTypes" : ""})`,
    );
  if (missing.length > 0) accepts.push(`remove ${list(missing, file)} from the folder (the objects are gone)`);
  if (gone.length > 0 && extra.length + changed.length + missing.length === 0) {
    // Objects recorded as extra are gone: the state only has to learn it.
    const refresh = pulumi("refresh", ctx, r.urn, ["--run-program", "--yes"]);
    return { revert: refresh, accept: refresh };
  }
  const then = (steps: string[], cmd: string) => (steps.length === 0 ? cmd : `${steps.join("; ")}; then: ${cmd}`);
  return { revert: then(reverts, up), accept: then(accepts, up) };
}
