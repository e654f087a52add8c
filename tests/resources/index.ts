/**
 * The test fixtures of every resource type, found by the registry's definitions: the fixture of
 * `krcloud:<module>:<Type>` is tests/resources/<module>/<noun>.ts, `<noun>` the type in kebab-case
 * as its definition's file is named (fixture.ts says what one exports). The tables the tests walk
 * (valid inputs, cross-field rules, the fault matrix's rows and cloud kinds, the zero-diff and
 * drift-all specs, the drift recipes, the resources made outside Pulumi, the secrets scan's
 * stacks) are derived from them, so a type added to the registry is in every one, and a type
 * without its fixture, or a fixture without one of its facts, fails naming the file and the fact.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { allDefinitions, findDefinition } from "../../provider/registry";
import { inputKeys } from "../../provider/core/resource";
import type { Control, StateResource } from "../harness/engine";
import type { RulesContext, TypeRules } from "../support/inputs/cross-field";
import type { Input } from "../support/inputs/rules";
import { FIXTURE_EXPORTS, type DriftRecipe, type ResourceFixture } from "./fixture";

export * from "./fixture";

const EXPORTS: readonly (keyof ResourceFixture)[] = FIXTURE_EXPORTS;

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());

/** The fixture file of `token`, relative to the repository: `tests/resources/cache/instance-set.ts`. */
export function fixtureFile(token: string): string {
  const [, mod, type] = token.split(":") as [string, string, string];
  return `tests/resources/${mod}/${kebab(type)}.ts`;
}

/** The fixture of `token`; throws naming the file to add, or the facts it lacks or has in the wrong shape. */
export function fixtureOf(token: string): ResourceFixture {
  const file = fixtureFile(token);
  const compiled = path.join(__dirname, path.relative("tests/resources", file).replace(/\.ts$/, ".js"));
  if (!fs.existsSync(compiled)) {
    throw new Error(`${token} has no test fixture: add ${file} exporting ${EXPORTS.join(", ")} (see docs/contributing/new-resource.md)`);
  }
  const fixture = require(compiled) as Partial<ResourceFixture>;
  const problem = fixtureProblem(file, fixture);
  if (problem !== undefined) throw new Error(problem);
  return fixture as ResourceFixture;
}

/** What is wrong with a fixture's exports, naming each fact it lacks or has in the wrong shape; undefined when nothing is. */
export function fixtureProblem(file: string, fixture: Partial<ResourceFixture>): string | undefined {
  const missing = EXPORTS.filter((k) => fixture[k] === undefined);
  if (missing.length > 0) return `${file} exports no ${missing.join(", ")} (see tests/resources/fixture.ts and docs/contributing/new-resource.md)`;
  const shapes = shapeProblems(fixture as ResourceFixture);
  return shapes.length > 0 ? `${file}: ${shapes.join("; ")}` : undefined;
}

const has = (o: object, k: string): boolean => k in o;

/** A fact of the wrong shape: `drift` that is neither a recipe, a change nor none, and the like. */
function shapeProblems(f: ResourceFixture): string[] {
  const out: string[] = [];
  if (typeof f.cloudKinds !== "function") out.push("cloudKinds must be a function of a state entry");
  const d = f.drift as object;
  if (!has(d, "recipe") && !(has(d, "change") && has(d, "noRecipe")) && !has(d, "none"))
    out.push("drift must be { recipe }, { change, noRecipe } or { none: why }");
  const o = f.outside as object;
  if (!has(o, "make") && !has(o, "none")) out.push("outside must be { make } or { none: why }");
  const s = f.secrets as object;
  if (!has(s, "holder") && !has(s, "none")) out.push("secrets must be { holder } or { none: why }");
  return out;
}

/**
 * What a type's facts say that its definition contradicts, each naming the fact: the drift check
 * sees no change of an `unverifiable` type and every change of another; a type `pulumi import`
 * cannot take (no `importId`) is made outside Pulumi for no one; a secrets holder has secret inputs.
 */
export function factProblems(token: string): string[] {
  const def = findDefinition(token);
  if (def === undefined) return [`${token} is not registered`];
  const f = fixtureOf(token);
  const out: string[] = [];
  const unverifiable = def.unverifiable !== undefined;
  if (unverifiable && !("none" in f.drift)) out.push(`drift: the definition is unverifiable, so the fact is { none: why }`);
  // A verifiable type may say no drift can be planted only when every input it sends replaces it
  // (nothing the cloud could change in place to drift from): the check still sees it deleted.
  const replacedOnly = inputKeys(def).every((k) => def.replaceOn[k] !== undefined || (def.localInputs ?? []).includes(k));
  if (!unverifiable && "none" in f.drift && !replacedOnly)
    out.push(`drift: the drift check sees this type (the definition is not unverifiable, and some inputs change in place): give a recipe or a change`);
  if (def.importId === undefined && "make" in f.outside)
    out.push(`outside: the definition has no importId, so nothing made outside can be imported: { none: why }`);
  if ("holder" in f.secrets && (def.secretInputs ?? []).length === 0) out.push(`secrets: a holder declares secretInputs in its definition`);
  return out;
}

/** The drift recipe of a dynamic-class resource's state type (`pulumi-nodejs:dynamic/krcloud/<module>:<Type>`), if its fixture has one. */
export function recipeFor(type: string): DriftRecipe | undefined {
  const token = /^pulumi-nodejs:dynamic\//.test(type) ? tokenOf(type) : undefined;
  if (token === undefined || findDefinition(token) === undefined) return undefined;
  const d = fixtureOf(token).drift;
  return "recipe" in d ? d.recipe : undefined;
}

/** The control record behind a state resource as its recipe snapshots it, or undefined when the cloud no longer has it. */
export async function cloudSnapshot(control: Control, r: StateResource): Promise<unknown> {
  const recipe = recipeFor(r.type);
  if (!recipe || !r.id) return undefined;
  const rec = await control.getResource(recipe.service, recipe.kind, r.id);
  return rec === undefined ? undefined : recipe.snapshot(rec);
}

/** A state resource type as a token: the dynamic classes' `pulumi-nodejs:dynamic/krcloud/cache:Cluster`, or the token itself. */
export function tokenOf(type: string): string | undefined {
  const m = /^(?:pulumi-nodejs:dynamic\/)?krcloud[/:](\w+):(\w+)$/.exec(type);
  return m ? `krcloud:${m[1]}:${m[2]}` : undefined;
}

/**
 * Every resource type's token, in the order of the package's index and of each service's index
 * (the order the zero-diff specs declare them in).
 */
export function resourceTypes(): string[] {
  const modules = Object.keys(require("../../index") as object);
  const rank = (token: string) => modules.indexOf(token.split(":")[1] ?? "");
  return allDefinitions()
    .map((d) => d.token)
    .sort((a, b) => rank(a) - rank(b));
}

/** Every type's valid inputs. */
export function validInputs(): Record<string, Input> {
  return Object.fromEntries(resourceTypes().map((t) => [t, fixtureOf(t).valid]));
}

/** Every type's cross-field rules; `ctx`: the local facts some checks read (a file that exists). */
export function crossFieldRules(ctx: RulesContext): Record<string, TypeRules> {
  return Object.fromEntries(resourceTypes().map((t) => [t, fixtureOf(t).crossFieldRules(ctx)]));
}
