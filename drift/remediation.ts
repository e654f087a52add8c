/**
 * The two ways out of each drifted resource: revert (put the program's values back with a targeted
 * `pulumi up --refresh`) or accept (change the program to the cloud's values; for a deleted
 * resource, drop it from the program and the state). Every command that refreshes runs the program
 * (`--run-program`): the providers then read with the stack's configuration as it is now, not the
 * one the last up recorded in state (a rotated or corrected credential works at once).
 */
import type { ResourceResult } from "./model";
import { SECRET, show, topKey } from "./values";

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
