/**
 * The package is ready to install from git and to release: every place that installs pulumi-krcloud
 * (README, templates, examples, the program krcloud-drift --unmanaged writes) names the same git URL
 * and tag, which package.json's repository and version make; the prepare script builds what the
 * package ships; the release workflow runs on a tag that names the version, tests, publishes, and
 * attaches the plugins under the names `pulumi plugin install --server github://…` looks for. The
 * workflow's own shell steps run here (gh replaced by a recorder); GitHub itself is not reachable.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { programDependencies } from "../../drift/unmanaged/cli";

const ROOT = path.join(__dirname, "..", "..", "..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");
const PKG = JSON.parse(read("package.json")) as {
  version: string;
  repository: { url: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const SPEC = `${PKG.repository.url}#v${PKG.version}`;

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: { push: { tags: string[] } };
  jobs: Record<string, { needs?: string; permissions?: Record<string, string>; steps: Step[] }>;
}
const WORKFLOW = parseYaml(read(".github/workflows/release.yml")) as Workflow;
const step = (job: string, name: string): Step => {
  const s = WORKFLOW.jobs[job]!.steps.find((x) => x.name === name);
  if (!s) throw new Error(`release.yml: no step "${name}" in job ${job}`);
  return s;
};

describe("installing from git", () => {
  test("the prepare script builds the package, its native SDK and its browser pages, as make build does", () => {
    const projects = ["local-cloud/core/wire", "tsconfig.json", "tsconfig.native.json", "local-cloud/console/ui", "drift/formats/html-ui"];
    expect(PKG.scripts.prepare).toBe(projects.map((p) => `tsc -p ${p}`).join(" && "));
    expect(PKG.scripts.build).toBe(PKG.scripts.prepare);
    expect(PKG.scripts.prepack).toBeUndefined();
    for (const p of projects) expect(read("Makefile")).toContain(`tsc -p ${p} `);
  });

  test("README, templates, examples and the program --unmanaged writes all install the repository at this version's tag", () => {
    expect(SPEC).toBe(`git+https://github.com/krcloud/pulumi-krcloud.git#v${PKG.version}`);
    expect(read("README.md")).toContain(`npm install "${SPEC}"`);
    expect(programDependencies().krcloud).toBe(SPEC);
    const examples = fs.readdirSync(path.join(ROOT, "examples")).filter((e) => fs.existsSync(path.join(ROOT, "examples", e, "package.json")));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    const projects = ["templates/typescript", ...examples.map((e) => `examples/${e}`)];
    for (const dir of projects) {
      const pkg = JSON.parse(read(`${dir}/package.json`)) as { dependencies: Record<string, string>; allowScripts?: Record<string, boolean> };
      // One @pulumi/pulumi in a program: the one the package depends on.
      expect([dir, pkg.dependencies]).toEqual([dir, { "@pulumi/pulumi": PKG.dependencies["@pulumi/pulumi"], "pulumi-krcloud": SPEC }]);
      expect([dir, pkg.allowScripts]).toEqual([dir, { [PKG.repository.url]: true }]);
    }
  });

  test("the TypeScript peer range is the tested one: 5.5 up to, not including, 7", () => {
    expect(PKG.peerDependencies.typescript).toBe(">=5.5.0 <7");
    for (const f of ["templates/typescript/package.json", "examples/static-site/package.json"]) {
      expect((JSON.parse(read(f)) as { devDependencies: Record<string, string> }).devDependencies.typescript).toBe("^6.0.3");
    }
  });
});

describe("the release workflow", () => {
  test("runs on a version tag: the tests first, then npm publish with provenance and the GitHub release", () => {
    expect(WORKFLOW.on.push.tags).toEqual(["v*"]);
    expect(step("test", "Test").run).toBe(".ci/run");
    expect(fs.existsSync(path.join(ROOT, ".ci", "run"))).toBe(true);
    const publish = WORKFLOW.jobs.publish!;
    expect(publish.needs).toBe("test");
    expect(publish.permissions).toEqual({ contents: "write", "id-token": "write" });
    expect(step("publish", "Publish to npm")).toMatchObject({
      run: "npm publish --provenance --access public",
      env: { NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}" },
    });
    // The make targets it runs exist.
    const build = step("publish", "Build the package and the plugin").run!;
    for (const target of build.replace(/^make /, "").split(/\s+/)) expect(read("Makefile")).toMatch(new RegExp(`^${target}:`, "m"));
  });

  test("a tag that does not name package.json's version stops the release, naming both", () => {
    const check = step("test", "The tag names the package's version").run!;
    const ok = spawnSync("bash", ["-euo", "pipefail", "-c", check], {
      cwd: ROOT,
      env: { ...process.env, GITHUB_REF_NAME: `v${PKG.version}` },
      encoding: "utf8",
    });
    expect(ok.status).toBe(0);
    const bad = spawnSync("bash", ["-euo", "pipefail", "-c", check], { cwd: ROOT, env: { ...process.env, GITHUB_REF_NAME: "v9.9.9" }, encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain(`::error title=release tag::tag v9.9.9 does not name package.json's version ${PKG.version}`);
  });

  test("the GitHub release: this version's CHANGELOG section as notes, the provider plugin and the drift tool plugin under their own names and once per platform", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-release-"));
    try {
      fs.mkdirSync(path.join(dir, ".state", "plugin"), { recursive: true });
      fs.mkdirSync(path.join(dir, "bin"));
      fs.writeFileSync(path.join(dir, ".state", "plugin", "pulumi-resource-krcloud-v1.2.0.tar.gz"), "plugin");
      fs.writeFileSync(path.join(dir, ".state", "plugin", "pulumi-tool-krcloud-drift-v1.2.0.tar.gz"), "tool");
      fs.writeFileSync(
        path.join(dir, "CHANGELOG.md"),
        "# Changelog\n\n## [Unreleased]\n\n- next\n\n## [1.2.0] - 2026-12-01\n\n### Added\n- this release\n\n## [1.1.0] - 2026-11-01\n\n- older\n",
      );
      // gh records what it was asked to do.
      fs.writeFileSync(path.join(dir, "bin", "gh"), '#!/bin/sh\nprintf "%s\\n" "$@" > "$GH_ARGS"\n', { mode: 0o755 });
      const r = spawnSync("bash", ["-euo", "pipefail", "-c", step("publish", "GitHub release with the plugin").run!], {
        cwd: dir,
        env: { ...process.env, PATH: `${path.join(dir, "bin")}:${process.env.PATH}`, GITHUB_REF_NAME: "v1.2.0", GH_ARGS: path.join(dir, "gh-args") },
        encoding: "utf8",
      });
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const args = fs.readFileSync(path.join(dir, "gh-args"), "utf8").trim().split("\n");
      expect(args.slice(0, 7)).toEqual(["release", "create", "v1.2.0", "--title", "pulumi-krcloud 1.2.0", "--notes-file", ".state/release/notes.md"]);
      expect(
        args
          .slice(7)
          .map((a) => path.basename(a))
          .sort(),
      ).toEqual(
        ["pulumi-resource-krcloud", "pulumi-tool-krcloud-drift"]
          .flatMap((p) => [`${p}-v1.2.0.tar.gz`, ...["darwin-amd64", "darwin-arm64", "linux-amd64", "linux-arm64"].map((os) => `${p}-v1.2.0-${os}.tar.gz`)])
          .sort(),
      );
      expect(fs.readFileSync(path.join(dir, ".state", "release", "notes.md"), "utf8").trim()).toBe("### Added\n- this release");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
