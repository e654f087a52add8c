/**
 * Every reference page's example in TypeScript, Python and Go (docs/reference-examples/, converted
 * from the page's YAML program by scripts/gen-examples.sh with Pulumi's converter) is fresh and
 * compiles against this tree's SDKs: TypeScript type-checks against `pulumi-krcloud/native`, Python
 * byte-compiles and every `krcloud.<module>.<name>` it uses exists in the installed pulumi_krcloud
 * wheel, Go vets (type-checks) against the generated Go SDK (the Go programs the converter writes
 * that do not compile are left out by gen-examples.sh, each with its error, which the page shows).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { generate } from "../../tools/gen-reference";
import { generateSdks, GO, makeVirtualenv, PULUMI_PYTHON_VERSION, pythonWheel, REPO_ROOT, Sandbox } from "../harness/engine";

jest.setTimeout(900_000);

const run = promisify(execFile);
const COMMITTED = path.join(REPO_ROOT, "docs", "reference-examples");

/** Every file under `dir`, relative to it, sorted. */
function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}
const programs = (lang: string, file: string): string[] => listFiles(COMMITTED).filter((f) => f.endsWith(`/${lang}/${file}`));

let sandbox: Sandbox;
let sdkDir: string;

beforeAll(async () => {
  sandbox = new Sandbox({ label: "docs-examples" });
  sdkDir = path.join(sandbox.root, "sdk");
  await generateSdks(sdkDir);
}, 600_000);

afterAll(() => sandbox?.cleanup());

test("the converted examples are those scripts/gen-examples.sh makes from the YAML examples, and every page shows them", async () => {
  const fresh = path.join(sandbox.root, "fresh");
  await run("bash", [path.join(REPO_ROOT, "scripts", "gen-examples.sh"), fresh], { maxBuffer: 16 * 1024 * 1024 });
  const files = listFiles(fresh);
  expect(listFiles(COMMITTED)).toEqual(files);
  for (const f of files) expect([f, fs.readFileSync(path.join(COMMITTED, f), "utf8") === fs.readFileSync(path.join(fresh, f), "utf8")]).toEqual([f, true]);
  // One example per page, each in the three languages.
  const examples = fs
    .readdirSync(path.join(REPO_ROOT, "provider"))
    .flatMap((m) =>
      fs.existsSync(path.join(REPO_ROOT, "provider", m)) && fs.statSync(path.join(REPO_ROOT, "provider", m)).isDirectory()
        ? fs.readdirSync(path.join(REPO_ROOT, "provider", m)).filter((f) => f.endsWith(".example.yaml"))
        : [],
    );
  // A Go program that does not compile is replaced by go/NOT-COMPILED.txt (its page says so).
  expect(programs("go", "main.go").length + programs("go", "NOT-COMPILED.txt").length).toBe(examples.length);
  expect(programs("go", "main.go").length).toBeGreaterThan(0);
  expect(programs("python", "__main__.py")).toHaveLength(examples.length);
  expect(programs("typescript", "index.ts")).toHaveLength(examples.length);
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
  const pages = [...generate(schema).values()].join("\n");
  for (const f of programs("python", "__main__.py")) {
    expect([f, pages.includes("```python\n" + fs.readFileSync(path.join(COMMITTED, f), "utf8").trimEnd() + "\n```")]).toEqual([f, true]);
  }
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
      files: programs("typescript", "index.ts").map((f) => path.join(COMMITTED, f)),
    }),
  );
  await run(process.execPath, [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
});

test("every Python example byte-compiles, and what it uses of pulumi_krcloud exists in the wheel", async () => {
  const venv = path.join(sandbox.root, "venv");
  const requirements = path.join(sandbox.root, "requirements.txt");
  fs.writeFileSync(requirements, `pulumi==${PULUMI_PYTHON_VERSION}\n`);
  await makeVirtualenv(venv, requirements, pythonWheel(sdkDir));
  const files = programs("python", "__main__.py").map((f) => path.join(COMMITTED, f));
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
  for (const f of programs("go", "main.go")) {
    const dir = path.join(mod, f.split("/").slice(0, 2).join("-"));
    fs.mkdirSync(dir);
    fs.copyFileSync(path.join(COMMITTED, f), path.join(dir, "main.go"));
  }
  const env = { ...process.env, GOFLAGS: "-mod=mod", PATH: `${path.dirname(GO)}${path.delimiter}${process.env.PATH ?? ""}` };
  await run(GO, ["vet", "./..."], { cwd: mod, env, maxBuffer: 16 * 1024 * 1024 });
});
