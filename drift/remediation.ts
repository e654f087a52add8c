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
 * or the StaticSite whose child it is).
 */
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
/** The component that declares a folder of its own, and the suffix of that child's name (static-site.ts). */
const FOLDER_COMPONENTS: Record<string, string> = { "krcloud:objectstorage:StaticSite": "-content" };

/** The resource the program declares for a folder: the folder itself, or the component it is a child of. */
function declaredAs(r: ResourceResult): string {
  const types = (r.urn.split("::")[2] ?? "").split("$");
  const parent = types.length > 1 ? displayType(types[types.length - 2]!) : undefined;
  const suffix = parent === undefined ? undefined : FOLDER_COMPONENTS[parent];
  if (suffix !== undefined && r.name.endsWith(suffix)) return `the ${parent!.split(":")[2]} "${r.name.slice(0, -suffix.length)}"`;
  return `"${r.name}"`;
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
      `make the folder's files what the bucket holds: put the objects' content into ${list(changed, file)} (the content type comes from the extension or contentTypes)`,
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
