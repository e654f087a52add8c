/**
 * Every reference page's example in TypeScript, Python and Go (converted from the page's YAML
 * program by scripts/gen-examples.sh with Pulumi's converter, kept in docs/reference only) is fresh
 * and compiles against this tree's SDKs: the pages are regenerated from a fresh conversion and
 * compared, then the code each page shows is compiled: TypeScript type-checks against
 * `pulumi-krcloud/native`, Python byte-compiles and every `krcloud.<module>.<name>` it uses exists
 * in the installed pulumi_krcloud wheel, Go vets (type-checks) against the generated Go SDK. Every
 * page shows all three (tests/unit/reference-docs.test.ts checks the rest of the pages).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { CONVERTED_LANGUAGES, convertedFromDir, convertedFromPages, exampleFiles, generate } from "../../tools/gen-reference";
import { GO, PULUMI_PYTHON_VERSION, REPO_ROOT, Sandbox, sharedSdks, sharedVirtualenv } from "../harness/engine";

jest.setTimeout(900_000);

const run = promisify(execFile);
const PAGES = path.join(REPO_ROOT, "docs", "reference");

let sandbox: Sandbox;
let sdkDir: string;
/** The code the committed pages show, written out: `<dir>/<module>-<page>/<file>` for each language dir. */
let shown: string;

/** Every resource and function token of schema.json. */
function tokens(): string[] {
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")) as { resources: object; functions: object };
  return [...Object.keys(schema.resources), ...Object.keys(schema.functions)].sort();
}

/** The files written under `shown` for one language directory. */
function programs(dir: string): string[] {
  return fs.readdirSync(path.join(shown, dir)).map((d) => path.join(shown, dir, d, fs.readdirSync(path.join(shown, dir, d))[0]!));
}

beforeAll(async () => {
  sandbox = new Sandbox({ label: "docs-examples" });
  sdkDir = await sharedSdks();
  shown = path.join(sandbox.root, "shown");
  const fromPages = convertedFromPages(PAGES);
  for (const token of tokens()) {
    const [, mod, name] = token.split(":") as [string, string, string];
    for (const l of CONVERTED_LANGUAGES) {
      const found = fromPages(token, l);
      if (!found || !("code" in found)) continue;
      const dir = path.join(shown, l.dir, `${mod}-${name}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, l.file), found.code + "\n");
    }
  }
  // The TypeScript resolves `pulumi-krcloud/native` and `@pulumi/pulumi` as a program in this tree would.
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(shown, "node_modules"), "dir");
}, 600_000);

afterAll(() => sandbox?.cleanup());

test("the pages show what scripts/gen-examples.sh converts from the YAML examples today, every example in each language", async () => {
  const fresh = path.join(sandbox.root, "fresh");
  await run("bash", [path.join(REPO_ROOT, "scripts", "gen-examples.sh"), fresh], { maxBuffer: 16 * 1024 * 1024 });
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
  const expected = generate(schema, REPO_ROOT, convertedFromDir(fresh));
  for (const [rel, text] of expected) expect([rel, fs.readFileSync(path.join(PAGES, rel), "utf8") === text]).toEqual([rel, true]);
  // Every page shows its example in TypeScript, Python and Go: none left out for not compiling.
  const examples = exampleFiles(REPO_ROOT).length;
  expect(tokens()).toHaveLength(examples);
  for (const l of CONVERTED_LANGUAGES) expect([l.name, programs(l.dir).length]).toEqual([l.name, examples]);
});

test("every TypeScript example type-checks against pulumi-krcloud/native", async () => {
  const tsconfig = path.join(sandbox.root, "tsconfig.examples.json");
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "node16",
        moduleResolution: "node16",
        skipLibCheck: true,
        types: [],
        typeRoots: [],
      },
      files: programs("typescript"),
    }),
  );
  await run(process.execPath, [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
});

test("every Python example byte-compiles, and what it uses of pulumi_krcloud exists in the wheel", async () => {
  const venv = await sharedVirtualenv(`pulumi==${PULUMI_PYTHON_VERSION}\n`);
  const files = programs("python");
  // Every attribute chain from `krcloud` (krcloud.cache.Cluster, krcloud.objectstorage.BucketAclPublic.READ_ONLY) resolves.
  const check = `
import ast, sys, pulumi_krcloud
missing = []
for f in sys.argv[1:]:
    tree = ast.parse(open(f).read(), f)
    compile(tree, f, "exec")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain, n = [], node
            while isinstance(n, ast.Attribute):
                chain.insert(0, n.attr)
                n = n.value
            if isinstance(n, ast.Name) and n.id == "krcloud":
                obj = pulumi_krcloud
                for a in chain:
                    if not hasattr(obj, a):
                        missing.append(f + ": krcloud." + ".".join(chain))
                        break
                    obj = getattr(obj, a)
print("\\n".join(missing))
`;
  const { stdout } = await run(path.join(venv, "bin", "python"), ["-c", check, ...files], { maxBuffer: 16 * 1024 * 1024 });
  expect(stdout.trim()).toBe("");
});

test("every Go example vets against the generated Go SDK", async () => {
  const mod = path.join(sandbox.root, "go-examples");
  fs.mkdirSync(mod);
  const goMod = fs
    .readFileSync(path.join(REPO_ROOT, "examples", "go-static-site", "go.mod"), "utf8")
    .replace(/^module .*$/m, "module krcloud-reference-examples")
    .replace(/^replace github.com\/krcloud\/pulumi-krcloud\/sdk\/go => .*$/m, `replace github.com/krcloud/pulumi-krcloud/sdk/go => ${path.join(sdkDir, "go")}`);
  fs.writeFileSync(path.join(mod, "go.mod"), goMod);
  fs.copyFileSync(path.join(REPO_ROOT, "examples", "go-static-site", "go.sum"), path.join(mod, "go.sum"));
  for (const f of programs("go")) {
    const dir = path.join(mod, path.basename(path.dirname(f)));
    fs.mkdirSync(dir);
    fs.copyFileSync(f, path.join(dir, "main.go"));
  }
  const env = { ...process.env, GOFLAGS: "-mod=mod", PATH: `${path.dirname(GO)}${path.delimiter}${process.env.PATH ?? ""}` };
  await run(GO, ["vet", "./..."], { cwd: mod, env, maxBuffer: 16 * 1024 * 1024 });
});
