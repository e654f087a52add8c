/** Wording shared by the text formats. */
import { EXIT, type PropertyFinding, type ResourceResult } from "../model";
import { show } from "../values";

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** `drifted`, `deleted (ignored)`, `drifted (known)`, `unreadable`, `pending`. */
export function statusWord(r: ResourceResult): string {
  const base = r.status === "unverifiable" ? "not checked" : r.status;
  if (r.status !== "drifted" && r.status !== "deleted") return base;
  return r.disposition === "ignored" ? `${base} (ignored)` : r.disposition === "baseline" ? `${base} (known)` : base;
}

export function describeExit(code: number): string {
  switch (code) {
    case EXIT.clean:
      return "Exit 0: no drift.";
    case EXIT.drift:
      return "Exit 2: drift found.";
    case EXIT.partial:
      return "Exit 3: partial: some resources or stacks could not be read (the rest is reported above).";
    case EXIT.policy:
      return "Exit 4: a mandatory policy violation.";
    default:
      return "Exit 1: error.";
  }
}

/** One sentence for a drifted property: `acl.public is "deny" in the cloud, "read-only" in the program`. */
export function propertySentence(p: PropertyFinding): string {
  if (p.secret) return `${p.path} (a secret) differs; its values are not shown or compared`;
  return `${p.path} is ${show(p.cloud)} in the cloud, ${show(p.program)} in the program`;
}

/** Findings that a report lists: drift (any disposition), deletions, unreadable resources. */
export function isFinding(r: ResourceResult): boolean {
  return r.status === "drifted" || r.status === "deleted" || r.status === "unreadable";
}
