/**
 * The Python and Go SDKs generated from schema.json (scripts/gen-sdks.sh, Pulumi's own code
 * generators) compile: every Python file byte-compiles, the Go module builds and vets, and both
 * hold every resource and function of the schema in its module; the wheel `make sdks` builds and the
 * Go SDK carry the package's version.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PACKAGE_VERSION, REPO_ROOT } from "../harness/engine";

jest.setTimeout(900_000);

const GO = fs.existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";
const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")) as {
  resources: Record<string, unknown>;
  functions: Record<string, unknown>;
};
/** `krcloud:cache:Cluster` -> ["cache", "Cluster"]. */
const parts = (token: string): [string, string] => [token.split(":")[1]!, token.split(":")[2]!];

let out: string;

beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-sdks-"));
  execFileSync("bash", [path.join(REPO_ROOT, "scripts", "gen-sdks.sh"), out], { stdio: "inherit" });
});
afterAll(() => {
  if (out) fs.rmSync(out, { recursive: true, force: true });
});

test("the Python SDK holds every resource and function, and every file byte-compiles", () => {
  const pkg = path.join(out, "python", "pulumi_krcloud");
  for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions)]) {
    const [mod, name] = parts(token);
    const file = path.join(pkg, mod, `${name.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase()}.py`);
    expect([token, fs.existsSync(file)]).toEqual([token, true]);
  }
  execFileSync("python3", ["-m", "compileall", "-q", path.join(out, "python")], { stdio: "inherit" });
});

test("the Python wheel and the Go SDK carry the package's version (the plugin version they ask the engine for)", () => {
  expect(fs.readdirSync(path.join(out, "python", "dist"))).toEqual([`pulumi_krcloud-${PACKAGE_VERSION}-py3-none-any.whl`]);
  // The generator's own option (respectSchemaVersion, set by sdkgen): every resource's default options
  // and the plugin file name the version.
  expect(fs.readFileSync(path.join(out, "go", "krcloud", "internal", "pulumiUtilities.go"), "utf8")).toContain(
    `version := semver.MustParse("${PACKAGE_VERSION}")`,
  );
  expect(JSON.parse(fs.readFileSync(path.join(out, "go", "krcloud", "pulumi-plugin.json"), "utf8"))).toMatchObject({
    name: "krcloud",
    version: PACKAGE_VERSION,
  });
});

test("the Go SDK holds every resource and function, builds and vets", () => {
  const mod = path.join(out, "go");
  for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions)]) {
    const [m, name] = parts(token);
    const file = path.join(mod, "krcloud", m, `${name.charAt(0).toLowerCase()}${name.slice(1)}.go`);
    expect([token, fs.existsSync(file)]).toEqual([token, true]);
  }
  const env = { ...process.env, GOFLAGS: "-mod=mod", PATH: `${path.dirname(GO)}${path.delimiter}${process.env.PATH ?? ""}` };
  execFileSync(GO, ["build", "./..."], { cwd: mod, env, stdio: "inherit" });
  execFileSync(GO, ["vet", "./..."], { cwd: mod, env, stdio: "inherit" });
});
