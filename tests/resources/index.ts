/**
 * The test fixtures of every resource type, found by the registry's definitions: the fixture of
 * `krcloud:<module>:<Type>` is tests/resources/<module>/<noun>.ts, `<noun>` the type in kebab-case
 * as its definition's file is named (fixture.ts says what one exports). The tables the tests walk
 * (valid inputs, cross-field rules, the fault matrix's rows, the zero-diff specs) are derived from
 * them, so a type added to the registry is in every one, and a type without its fixture fails,
 * naming the file to add.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { allDefinitions } from "../../provider/registry";
import type { RulesContext, TypeRules } from "../support/inputs/cross-field";
import type { Input } from "../support/inputs/rules";
import type { ResourceFixture } from "./fixture";

export { SECRET_MARK, type ResourceFixture } from "./fixture";

const EXPORTS: readonly (keyof ResourceFixture)[] = ["valid", "crossFieldRules", "faultRow", "zeroDiffSpec"];

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());

/** The fixture file of `token`, relative to the repository: `tests/resources/cache/instance-set.ts`. */
export function fixtureFile(token: string): string {
  const [, mod, type] = token.split(":") as [string, string, string];
  return `tests/resources/${mod}/${kebab(type)}.ts`;
}

/** The fixture of `token`; throws naming the file to add, or the export it lacks. */
export function fixtureOf(token: string): ResourceFixture {
  const file = fixtureFile(token);
  const compiled = path.join(__dirname, path.relative("tests/resources", file).replace(/\.ts$/, ".js"));
  if (!fs.existsSync(compiled)) {
    throw new Error(`${token} has no test fixture: add ${file} exporting ${EXPORTS.join(", ")} (see docs/contributing/new-resource.md)`);
  }
  const fixture = require(compiled) as Partial<ResourceFixture>;
  const missing = EXPORTS.filter((k) => fixture[k] === undefined);
  if (missing.length > 0) throw new Error(`${file} exports no ${missing.join(", ")}`);
  return fixture as ResourceFixture;
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
