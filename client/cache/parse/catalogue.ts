/** Engine versions and flavors (spec 02 §4.1). */

import { z } from "zod";
import type { Flavor } from "../types";
import { compact, fail, idValue, listOf, optNum, optStr } from "./readers";

/** A JSON array of version strings (4.1); `{versions: [...]}` and items `{version}`/`{name}` are read too. */
export function flattenVersions(body: unknown, action: string): string[] {
  const out: string[] = [];
  for (const item of listOf(body, "versions", action, "version list")) {
    if (typeof item === "string") out.push(item);
    else if (typeof item === "number") out.push(String(item));
    else if (typeof item === "object" && item !== null) {
      const o = item as Record<string, unknown>;
      const v = o.version ?? o.name ?? o.id;
      if (typeof v === "string") out.push(v);
    }
  }
  return out;
}

export function flattenFlavors(body: unknown, action: string): Flavor[] {
  const schema = z.looseObject({ id: idValue(), name: optStr(), vcpus: optNum(), vcpu: optNum(), memory: optNum() });
  return listOf(body, "flavors", action, "flavor list").map((item) => {
    const r = schema.safeParse(item);
    if (!r.success) return fail(action, "flavor", r.error);
    const d = r.data;
    return compact<Flavor>({ id: d.id, name: d.name, vcpus: d.vcpus ?? d.vcpu, memory: d.memory, raw: item });
  });
}
