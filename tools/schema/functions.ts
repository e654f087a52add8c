/** A lookup's entry of schema.json (a function), from its definition. */
import type { AnyLookup } from "../../provider/core/lookup";
import { deref, objectProperties, toJson, typeSpec, type Ctx } from "./properties";
import { PACKAGE_NAME, parseToken, pascal, type FunctionSpec, type TypeRegistry } from "./types";

export function functionSpec(lookup: AnyLookup, types: TypeRegistry): FunctionSpec {
  const { pkg, module, name } = parseToken(lookup.token);
  if (pkg !== PACKAGE_NAME) throw new Error(`function token ${lookup.token} is not in package ${PACKAGE_NAME}`);
  const prefix = pascal(name);
  const spec: FunctionSpec = { description: lookup.description, outputs: {} };
  if (lookup.args) spec.inputs = objectProperties(lookup.args(), "input", prefix, module, types);
  const out = lookup.result();
  const root = toJson(out, "output");
  const ctx: Ctx = { module, root, types, seen: new Map() };
  const node = deref(root, ctx).node;
  if (node.type === "object" && node.properties && Object.keys(node.properties).length > 0) {
    const outs = objectProperties(out, "output", prefix, module, types);
    for (const k of lookup.secretResults ?? []) {
      const p = outs.properties[k];
      if (!p) throw new Error(`${lookup.token}: secretResults names "${k}", which is not a result property`);
      p.secret = true;
    }
    spec.outputs = outs;
  } else {
    spec.outputs = typeSpec(root, `${prefix}Result`, ctx);
  }
  return spec;
}
