/**
 * What a new resource type needs, and that every registered type has it
 * (docs/contributing/new-resource.md). A resource type is four files and one line:
 *
 * 1. its definition, `provider/<module>/<noun>.ts` (the token, and the class at its end);
 * 2. one line in `provider/<module>/index.ts` exporting the class and its args type;
 * 3. its reference example, `provider/<module>/<noun>.example.yaml`;
 * 4. its test fixture, `tests/resources/<module>/<noun>.ts`: every fact about the type the tests
 *    that walk the types need (valid inputs, cross-field rules, its fault-matrix row, its zero-diff
 *    resources, what the cloud holds for it, how it drifts, how it is made outside Pulumi, whether
 *    it holds secrets; tests/resources/fixture.ts), each checked against its definition;
 * 5. its test against the local cloud, a `tests/local/<module>-*.test.ts` that names its token;
 * 6. in its definition, `readsFromList`: how its reads are answered from its list pages, or why not.
 *
 * A component (provider/core/component.ts) is three files and one line: its definition
 * `provider/<module>/<noun>.ts` ending with its class (`componentClass`), one line in the module's
 * index, its reference example beside it, and its engine test in tests/engine/components.test.ts
 * (both doors). It has no fixture: it makes no request itself, its children have theirs.
 *
 * A lookup is one statement in `provider/<module>/functions.ts` and its example,
 * `provider/<module>/<name in kebab-case>.example.yaml` (previewed by tests/engine/docs-reference).
 * Everything else is derived: schema.json, docs/reference, the README's table of services, the
 * args types, the native SDK, the tables and programs every test that walks the types reads (the
 * fault matrix, the zero-diff, drift-all and secrets-scan stacks, the resources made outside
 * Pulumi), krcloud-drift's discovery (with its logical names: the definition's `list.nameSuffix`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { allComponents, allDefinitions, allLookups } from "../../provider/registry";
import { exampleFile } from "../../tools/gen-reference";
import { factProblems, FIXTURE_EXPORTS, fixtureFile, fixtureOf, fixtureProblem, resourceTypes, type ResourceFixture } from "../resources";
import { FAULT_FILES } from "../support/faults/rows";

const ROOT = path.join(__dirname, "..", "..", "..");
const read = (file: string): string | undefined => (fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), "utf8") : undefined);
const kebab = (name: string): string => name.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());

interface Need {
  /** What it is, in the words of docs/contributing/new-resource.md. */
  what: string;
  file: string;
  /** Why it is not there yet; undefined when it is. */
  missing?: string;
}

/**
 * The definition file (declaring `token`, ending with the class `maker` makes), its index line and
 * its reference example: what a resource and a component both need.
 */
function definitionNeeds(token: string, maker: "resourceClass" | "componentClass"): Need[] {
  const [, mod, type] = token.split(":") as [string, string, string];
  const noun = kebab(type);
  const definition = `provider/${mod}/${noun}.ts`;
  const source = read(definition);
  const index = `provider/${mod}/index.ts`;
  const example = exampleFile(token);
  return [
    {
      what: "the definition",
      file: definition,
      missing:
        source === undefined
          ? "no such file"
          : !source.includes(`"${token}"`)
            ? `it does not declare "${token}"`
            : !new RegExp(`^export const ${type} = ${maker}<`, "m").test(source)
              ? `it does not end with the class: export const ${type} = ${maker}<${type}Args, ...>(...)`
              : undefined,
    },
    {
      what: "the index line",
      file: index,
      missing: new RegExp(`^export \\{ ${type}, type ${type}Args \\} from "\\./${noun}";$`, "m").test(read(index) ?? "")
        ? undefined
        : `no line export { ${type}, type ${type}Args } from "./${noun}";`,
    },
    { what: "the reference example", file: example, missing: read(example) === undefined ? "no such file" : undefined },
  ];
}

/** The files and lines resource type `token` needs, and which of them are missing. */
function resourceNeeds(token: string): Need[] {
  const mod = token.split(":")[1]!;
  const fixture = fixtureFile(token);
  const local = fs
    .readdirSync(path.join(ROOT, "tests", "local"))
    .filter((f) => f.startsWith(`${mod}-`) && f.endsWith(".test.ts"))
    .filter((f) => new RegExp(`${token}\\b`).test(read(`tests/local/${f}`)!));
  let problem: string | undefined;
  try {
    fixtureOf(token);
    const facts = factProblems(token);
    if (facts.length > 0) problem = facts.join("; ");
  } catch (e) {
    problem = (e as Error).message;
  }
  return [
    ...definitionNeeds(token, "resourceClass"),
    { what: "the test fixture", file: fixture, missing: problem },
    {
      what: "its test against the local cloud",
      file: `tests/local/${mod}-*.test.ts`,
      missing: local.length > 0 ? undefined : `no tests/local/${mod}-*.test.ts names ${token}`,
    },
  ];
}

/** The files and lines component `token` needs, and which of them are missing. */
function componentNeeds(token: string): Need[] {
  const type = token.split(":")[2]!;
  const test = "tests/engine/components.test.ts";
  return [
    ...definitionNeeds(token, "componentClass"),
    {
      what: "its engine test, both doors",
      file: test,
      missing: new RegExp(`${type} from %s`).test(read(test) ?? "") ? undefined : `no describe.each(...)("${type} from %s") in ${test}`,
    },
  ];
}

/** The statement and the example lookup `token` needs. */
function lookupNeeds(token: string): Need[] {
  const [, mod, name] = token.split(":") as [string, string, string];
  const functions = `provider/${mod}/functions.ts`;
  const example = exampleFile(token);
  return [
    {
      what: "the lookup's statement",
      file: functions,
      missing: new RegExp(`^export const \\{ ${name}, ${name}Output \\} = `, "m").test(read(functions) ?? "")
        ? undefined
        : `no statement export const { ${name}, ${name}Output } = lookup("${name}", {...})`,
    },
    { what: "the reference example", file: example, missing: read(example) === undefined ? "no such file" : undefined },
  ];
}

const missing = (needs: Need[]) => needs.filter((n) => n.missing !== undefined).map((n) => `${n.what}, ${n.file}: ${n.missing}`);

test.each([
  {
    what: "resource type needs its definition, its index line, its example, its fixture and its test",
    needs: resourceNeeds,
    token: "krcloud:widgets:SpareWheel",
    files: [
      ["the definition", "provider/widgets/spare-wheel.ts"],
      ["the index line", "provider/widgets/index.ts"],
      ["the reference example", "provider/widgets/spare-wheel.example.yaml"],
      ["the test fixture", "tests/resources/widgets/spare-wheel.ts"],
      ["its test against the local cloud", "tests/local/widgets-*.test.ts"],
    ],
  },
  {
    what: "lookup needs its statement and its example",
    needs: lookupNeeds,
    token: "krcloud:widgets:getSpareWheels",
    files: [
      ["the lookup's statement", "provider/widgets/functions.ts"],
      ["the reference example", "provider/widgets/get-spare-wheels.example.yaml"],
    ],
  },
  {
    what: "component needs its definition, its index line, its example and its engine test",
    needs: componentNeeds,
    token: "krcloud:widgets:SpareGarage",
    files: [
      ["the definition", "provider/widgets/spare-garage.ts"],
      ["the index line", "provider/widgets/index.ts"],
      ["the reference example", "provider/widgets/spare-garage.example.yaml"],
      ["its engine test, both doors", "tests/engine/components.test.ts"],
    ],
  },
])("a new $what; none is there for a made-up one", ({ needs, token, files }) => {
  expect(needs(token).map((n) => [n.what, n.file])).toEqual(files);
  expect(missing(needs(token))).toHaveLength(files.length);
});

test("every registered resource type has them", () => {
  const defs = allDefinitions();
  expect(defs.length).toBeGreaterThan(10);
  expect(defs.flatMap((d) => missing(resourceNeeds(d.token)).map((m) => `${d.token}: ${m}`))).toEqual([]);
});

test("a fixture names each fact it lacks, and each fact of the wrong shape", () => {
  const file = "tests/resources/widgets/spare-wheel.ts";
  const whole = fixtureOf("krcloud:objectstorage:Bucket");
  const { cloudKinds: _c, drift: _d, outside: _o, secrets: _s, ...old } = whole;
  expect(fixtureProblem(file, old)).toBe(
    `${file} exports no cloudKinds, drift, outside, secrets (see tests/resources/fixture.ts and docs/contributing/new-resource.md)`,
  );
  expect(fixtureProblem(file, {})).toContain(`exports no ${FIXTURE_EXPORTS.join(", ")}`);
  const wrong = { ...whole, drift: {}, outside: { notAdoptable: "x" }, secrets: { holds: true } } as unknown as ResourceFixture;
  expect(fixtureProblem(file, wrong)).toBe(
    `${file}: drift must be { recipe }, { change, noRecipe } or { none: why }; outside must be { make } or { none: why }; secrets must be { holder } or { none: why }`,
  );
  expect(fixtureProblem(file, whole)).toBeUndefined();
});

test("every type's facts agree with its definition: unverifiable types say why drift is unseen, the others how they drift; what cannot be imported is made outside for no one; a secrets holder has secret inputs", () => {
  const types = resourceTypes();
  expect(types.flatMap((t) => factProblems(t).map((p) => `${t}: ${p}`))).toEqual([]);
  // Each kind of fact is in use, so none of the checks above is vacuous.
  const facts = types.map((t) => fixtureOf(t));
  expect(facts.some((f) => "recipe" in f.drift) && facts.some((f) => "change" in f.drift) && facts.some((f) => "none" in f.drift)).toBe(true);
  expect(facts.some((f) => "make" in f.outside) && facts.some((f) => "none" in f.outside)).toBe(true);
  expect(facts.some((f) => "holder" in f.secrets) && facts.some((f) => "none" in f.secrets)).toBe(true);
});

test("every registered resource type says whether its reads come from its list pages, and why not in one line", () => {
  const said = allDefinitions().map((d) => {
    const r = d.readsFromList;
    if (r === undefined) return `${d.token}: no readsFromList (list-reads.ts: { walk, outputs }, or { no: "why not" })`;
    if ("no" in r) return /^[^\n]{10,200}$/.test(r.no) ? "ok" : `${d.token}: readsFromList.no is not one line of 10-200 characters`;
    return typeof r.walk === "function" && typeof r.outputs === "function" ? "ok" : `${d.token}: readsFromList needs walk and outputs`;
  });
  expect(said.filter((s) => s !== "ok")).toEqual([]);
  // Those that read from their list, so that a declaration dropped by mistake shows here.
  expect(
    allDefinitions()
      .filter((d) => d.readsFromList && !("no" in d.readsFromList))
      .map((d) => d.token)
      .sort(),
  ).toEqual(["krcloud:cache:Backup", "krcloud:cache:Cluster", "krcloud:cache:InstanceSet", "krcloud:dataquery:DataSource"]);
});

test("every registered lookup has them", () => {
  const lookups = allLookups();
  expect(lookups.length).toBeGreaterThan(15);
  expect(lookups.flatMap((l) => missing(lookupNeeds(l.token)).map((m) => `${l.token}: ${m}`))).toEqual([]);
});

test("every service with resource types runs in one fault-matrix file", () => {
  const services = [...new Set(allDefinitions().map((d) => d.token.split(":")[1]!))].sort();
  const files = Object.entries(FAULT_FILES as Record<string, Readonly<Record<string, string>>>);
  expect(files.flatMap(([, s]) => Object.keys(s)).sort()).toEqual(services);
  for (const [file] of files) expect([file, fs.existsSync(path.join(ROOT, "tests", "faults", `${file}.test.ts`))]).toEqual([file, true]);
});

test("every registered component has them", () => {
  const components = allComponents();
  expect(components.length).toBeGreaterThan(0);
  expect(components.flatMap((c) => missing(componentNeeds(c.token)).map((m) => `${c.token}: ${m}`))).toEqual([]);
});
