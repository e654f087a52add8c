/**
 * A resource's input schema, read into its rules (re-exported by rules.ts): zod 4's
 * `schema._zod.def` walked into types, lengths, patterns, ranges, enums, strict objects, required
 * properties, record keys and unions, with refinements kept as oracles; and the two ways a place
 * in the input is written, as a schema path and as the property path the engine shows.
 */
import type { z } from "zod";

/** A concrete property path: `["shards", 1, "replicaSubnetIds"]`. */
export type Path = (string | number)[];

/** A step of a schema path: a property, any array element, any record value, a union's option. */
export type Step = { key: string } | { element: true } | { value: true } | { option: number };

/** `shards[].replicaSubnetIds[]`, `metadata{}`, `source<1>.path`: where in the schema. */
export function schemaPathText(steps: readonly Step[]): string {
  let s = "";
  for (const st of steps) {
    if ("key" in st) s += s ? `.${st.key}` : st.key;
    else if ("element" in st) s += "[]";
    else if ("value" in st) s += "{}";
    else s += `<${st.option}>`;
  }
  return s;
}

/** The property path as the engine shows it: `shards[1].replicaSubnetIds`. */
export function propertyPath(path: readonly (string | number)[]): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : s ? `.${p}` : p;
  return s;
}

// ---------------------------------------------------------------------------------------------
// The schema, read

/** A rule's text: the schema's own message when it has one, else what zod's default message says. */
interface Limit {
  value: number;
  /** Exclusive bound (numbers): `gt`, `lt`. */
  exclusive?: boolean;
  text: string;
}

interface Pattern {
  re: RegExp;
  text: string;
}

/** A refinement of one value: the messages of the issues it raises for `v` (none: kept). */
export interface Refinement {
  run(v: unknown): string[];
}

export interface StringNode {
  kind: "string";
  min?: Limit;
  max?: Limit;
  patterns: Pattern[];
  refinements: Refinement[];
  typeText: string;
}

export type Node =
  | StringNode
  | { kind: "number"; int?: { text: string }; low?: Limit; high?: Limit; refinements: Refinement[]; typeText: string }
  | { kind: "boolean"; refinements: Refinement[]; typeText: string }
  | { kind: "literal"; values: unknown[]; refinements: Refinement[]; typeText: string }
  | { kind: "enum"; values: string[]; refinements: Refinement[]; typeText: string }
  | { kind: "array"; element: Field; min?: Limit; max?: Limit; refinements: Refinement[]; typeText: string }
  | { kind: "object"; shape: Record<string, Field>; strict: boolean; refinements: Refinement[]; typeText: string }
  | { kind: "record"; key: StringNode; value: Field; refinements: Refinement[]; typeText: string }
  | { kind: "union"; options: Node[]; refinements: Refinement[]; typeText: string };

export interface Field {
  node: Node;
  /** May be left out (optional, or has a default). */
  optional: boolean;
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
  error?: (issue: unknown) => unknown;
}

interface ZodCheck {
  _zod: { def: CheckDef; check(payload: { value: unknown; issues: { message?: string }[] }): unknown };
}

interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, string>;
  checks?: ZodCheck[];
  error?: (issue: unknown) => unknown;
}

const defOf = (s: z.ZodType): ZodDef => (s as unknown as { _zod: { def: ZodDef } })._zod.def;

function messageOf(error: ((issue: unknown) => unknown) | undefined): string | undefined {
  const m = error?.({});
  if (typeof m === "string") return m;
  if (m !== null && typeof m === "object" && typeof (m as { message?: unknown }).message === "string") return (m as { message: string }).message;
  return undefined;
}

function refinementOf(c: ZodCheck): Refinement {
  return {
    run(v) {
      const payload = { value: v, issues: [] as { message?: string }[] };
      const r = c._zod.check(payload);
      if (r instanceof Promise) throw new Error("an asynchronous refinement: check never runs one");
      return payload.issues.map((i) => i.message ?? messageOf(c._zod.def.error) ?? "Invalid input");
    },
  };
}

/** Reads a schema into its rules. Throws on a construct the generator does not know, so none is skipped silently. */
export function readField(schema: z.ZodType): Field {
  let s = schema;
  let optional = false;
  const wrapperChecks: ZodCheck[] = [];
  for (;;) {
    const d = defOf(s);
    if (["optional", "default", "prefault", "nullable", "readonly"].includes(d.type)) {
      // `.default({...}).refine(...)` puts the refinement on the wrapper.
      wrapperChecks.push(...(d.checks ?? []));
      if (d.type !== "nullable" && d.type !== "readonly") optional = true;
      s = d.innerType!;
      continue;
    }
    break;
  }
  const node = readNode(s);
  for (const c of wrapperChecks) {
    if (c._zod.def.check !== "custom") throw new Error(`a ${c._zod.def.check} check on a wrapper: the generator does not know it`);
    node.refinements.push(refinementOf(c));
  }
  return { node, optional };
}

function readNode(schema: z.ZodType): Node {
  const d = defOf(schema);
  const checks = d.checks ?? [];
  const refinements: Refinement[] = [];
  const typeMessage = messageOf(d.error);
  const unknownCheck = (c: ZodCheck) => new Error(`a ${d.type} schema with a ${c._zod.def.check} check: the generator does not know it`);
  switch (d.type) {
    case "string": {
      const n: StringNode = { kind: "string", patterns: [], refinements, typeText: typeMessage ?? "expected string" };
      for (const c of checks) {
        const cd = c._zod.def;
        const m = messageOf(cd.error);
        if (cd.check === "min_length") n.min = { value: cd.minimum!, text: m ?? `>=${cd.minimum}` };
        else if (cd.check === "max_length") n.max = { value: cd.maximum!, text: m ?? `<=${cd.maximum}` };
        else if (cd.check === "string_format" && cd.format === "regex") n.patterns.push({ re: cd.pattern!, text: m ?? "must match pattern" });
        else if (cd.check === "custom") refinements.push(refinementOf(c));
        else throw unknownCheck(c);
      }
      return n;
    }
    case "number": {
      const n: Extract<Node, { kind: "number" }> = { kind: "number", refinements, typeText: typeMessage ?? "expected number" };
      for (const c of checks) {
        const cd = c._zod.def;
        const m = messageOf(cd.error);
        if (cd.check === "number_format" && cd.format === "safeint") n.int = { text: m ?? "expected int" };
        else if (cd.check === "greater_than") n.low = { value: cd.value!, exclusive: !cd.inclusive, text: m ?? `${cd.inclusive ? ">=" : ">"}${cd.value}` };
        else if (cd.check === "less_than") n.high = { value: cd.value!, exclusive: !cd.inclusive, text: m ?? `${cd.inclusive ? "<=" : "<"}${cd.value}` };
        else if (cd.check === "custom") refinements.push(refinementOf(c));
        else throw unknownCheck(c);
      }
      return n;
    }
    case "boolean":
      return { kind: "boolean", refinements: customsOnly(d, checks), typeText: typeMessage ?? "expected boolean" };
    case "literal":
      return { kind: "literal", values: d.values!, refinements: customsOnly(d, checks), typeText: typeMessage ?? "Invalid input: expected" };
    case "enum":
      return { kind: "enum", values: Object.values(d.entries!), refinements: customsOnly(d, checks), typeText: typeMessage ?? "expected one of" };
    case "array": {
      const n: Extract<Node, { kind: "array" }> = { kind: "array", element: readField(d.element!), refinements, typeText: typeMessage ?? "expected array" };
      for (const c of checks) {
        const cd = c._zod.def;
        const m = messageOf(cd.error);
        if (cd.check === "min_length") n.min = { value: cd.minimum!, text: m ?? `>=${cd.minimum}` };
        else if (cd.check === "max_length") n.max = { value: cd.maximum!, text: m ?? `<=${cd.maximum}` };
        else if (cd.check === "custom") refinements.push(refinementOf(c));
        else throw unknownCheck(c);
      }
      return n;
    }
    case "object": {
      const shape: Record<string, Field> = {};
      for (const [k, v] of Object.entries(d.shape ?? {})) shape[k] = readField(v);
      const strict = d.catchall !== undefined && defOf(d.catchall).type === "never";
      if (d.catchall !== undefined && !strict) throw new Error("an object with a catchall schema: the generator does not know it");
      return { kind: "object", shape, strict, refinements: customsOnly(d, checks), typeText: typeMessage ?? "expected object" };
    }
    case "record": {
      const key = readNode(d.keyType!);
      if (key.kind !== "string") throw new Error(`a record keyed by ${key.kind}: the generator does not know it`);
      return { kind: "record", key, value: readField(d.valueType!), refinements: customsOnly(d, checks), typeText: typeMessage ?? "expected record" };
    }
    case "union":
      // zod's own text for a value no option takes is "Invalid input", which names no rule: a union needs a message saying what it takes.
      return {
        kind: "union",
        options: d.options!.map(readNode),
        refinements: customsOnly(d, checks),
        typeText: typeMessage ?? "(a message naming what the union takes: z.union(..., { error }))",
      };
    default:
      throw new Error(`a ${d.type} schema: the generator does not know it`);
  }
}

function customsOnly(d: ZodDef, checks: readonly ZodCheck[]): Refinement[] {
  return checks.map((c) => {
    if (c._zod.def.check !== "custom") throw new Error(`a ${d.type} schema with a ${c._zod.def.check} check: the generator does not know it`);
    return refinementOf(c);
  });
}

/** Every place a container (object, array, record, union) carries a refinement: the cross-field rules, which are hand-written. */
export function refinedContainers(root: Field): string[] {
  const out: string[] = [];
  const walk = (n: Node, steps: Step[]) => {
    const leaf = n.kind === "string" || n.kind === "number" || n.kind === "boolean" || n.kind === "literal" || n.kind === "enum";
    if (!leaf && n.refinements.length > 0) out.push(schemaPathText(steps));
    if (n.kind === "object") for (const [k, f] of Object.entries(n.shape)) walk(f.node, [...steps, { key: k }]);
    else if (n.kind === "array") walk(n.element.node, [...steps, { element: true }]);
    else if (n.kind === "record") walk(n.value.node, [...steps, { value: true }]);
    else if (n.kind === "union") n.options.forEach((o, i) => walk(o, [...steps, { option: i }]));
  };
  walk(root.node, []);
  return out.sort();
}
