/** A resource's and a component's entries of schema.json, from their definitions. */
import type { AnyComponent } from "../../provider/core/component";
import type { AnyDefinition } from "../../provider/core/resource";
import { alwaysSecretOutputKeys, secretInputKeys } from "../../provider/core/secrets";
import { objectProperties } from "./properties";
import { PACKAGE_NAME, parseToken, type ObjectTypeSpec, type PropertySpec, type ResourceSpec, type TypeRegistry } from "./types";

export function resourceSpec(def: AnyDefinition, types: TypeRegistry): ResourceSpec {
  const { pkg, module, name } = parseToken(def.token);
  if (pkg !== PACKAGE_NAME) throw new Error(`resource token ${def.token} is not in package ${PACKAGE_NAME}`);
  const ins = objectProperties(def.inputs(), "input", name, module, types);
  const outs = objectProperties(def.outputs(), "output", name, module, types);
  const replace = new Set<string>(Object.keys(def.replaceOn));
  for (const k of replace) {
    if (!(k in ins.properties)) throw new Error(`${def.token}: replaceOn names "${k}", which is not an input`);
  }
  const secretIns = new Set<string>(secretInputKeys(def));
  const secretOuts = new Set<string>(alwaysSecretOutputKeys(def));
  for (const [props, secret] of [
    [ins.properties, secretIns],
    [outs.properties, secretOuts],
  ] as const) {
    for (const [k, p] of Object.entries(props)) {
      if (secret.has(k)) p.secret = true;
      // The provider's diff replaces on these; `replaceOnChanges` also makes generated SDKs ask for it.
      if (replace.has(k)) {
        p.replaceOnChanges = true;
        p.willReplaceOnChanges = true;
      }
    }
  }
  const autoNamed = def.autoName?.property;
  const spec: ResourceSpec = {
    description: def.unlisted ? `${def.description}\n\nIt cannot be listed: ${def.unlisted}.` : def.description,
    inputProperties: ins.properties,
    requiredInputs: (ins.required ?? []).filter((k) => k !== autoNamed),
    properties: outs.properties,
    required: outs.required ?? [],
  };
  if (def.list) spec.listInputs = listInputsOf(def, ins.properties);
  return spec;
}

/** A component's resource entry: its inputs and outputs, marked `isComponent` (the plugin's Construct builds it). */
export function componentSpec(c: AnyComponent, types: TypeRegistry): ResourceSpec {
  const { pkg, module, name } = parseToken(c.token);
  if (pkg !== PACKAGE_NAME) throw new Error(`component token ${c.token} is not in package ${PACKAGE_NAME}`);
  const ins = objectProperties(c.inputs(), "input", name, module, types);
  const outs = objectProperties(c.outputs(), "output", name, module, types);
  for (const k of c.secretInputs ?? []) {
    if (!ins.properties[k]) throw new Error(`${c.token}: secretInputs names "${k}", which is not an input`);
    ins.properties[k].secret = true;
  }
  return {
    description: c.description,
    isComponent: true,
    inputProperties: ins.properties,
    requiredInputs: ins.required ?? [],
    properties: outs.properties,
    required: outs.required ?? [],
  };
}

/**
 * The type's `listInputs`: each filter of its `list`, a string input of the type. A type that lists
 * within another (an object within its bucket) requires that one.
 */
function listInputsOf(def: AnyDefinition, inputs: Record<string, PropertySpec>): ObjectTypeSpec {
  const list = def.list!;
  const properties: Record<string, PropertySpec> = {};
  for (const [k, description] of Object.entries(list.inputs ?? {})) {
    if (inputs[k]?.type !== "string") throw new Error(`${def.token}: list filters by "${k}", which is not a string input`);
    properties[k] = { type: "string", description };
  }
  const required = list.parent ? [list.parent.input] : [];
  for (const k of required) if (!(k in properties)) throw new Error(`${def.token}: list needs "${k}", which is not one of its filters`);
  return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
}
