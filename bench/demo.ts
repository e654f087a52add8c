/**
 * How long a no-op `make demo` takes: `make demo` once (whatever it has to do), then again with
 * nothing changed, timed. The goal is under 15 s on the 2-core build machine.
 *
 *   node dist/bench/demo.js [--json]
 *
 * Both runs are the real `make demo` of this working tree (build, CLI check, local cloud start,
 * `pulumi up` of every example), with a private state directory and a free port
 * (KRCLOUD_STATE_DIR, LOCAL_CLOUD_PORT), so a developer's own demo and local cloud are left alone;
 * afterwards the demo's stacks are destroyed and its local cloud stopped.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../local-cloud/core/ports";
import type { Study } from "./study";

export const NO_OP_DEMO_GOAL_S = 15;

function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-krcloud") return dir;
    if (path.dirname(dir) === dir) throw new Error("no pulumi-krcloud package.json above the tool");
  }
}

export interface DemoTimes {
  firstS: number;
  noOpS: number;
}

export async function benchDemo(): Promise<DemoTimes> {
  const root = repoRoot();
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-bench-demo-"));
  const env = { ...process.env, KRCLOUD_STATE_DIR: state, LOCAL_CLOUD_PORT: String(await freePort()) };
  const make = (target: string): number => {
    const t0 = performance.now();
    try {
      execFileSync("make", ["--no-print-directory", target], { cwd: root, env, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 * 1024 * 1024 });
    } catch (e) {
      const stderr = String((e as { stderr?: Buffer }).stderr ?? "");
      throw new Error(`make ${target} failed (state in ${state}):\n${stderr.slice(-4000)}`, { cause: e });
    }
    return (performance.now() - t0) / 1000;
  };
  try {
    const firstS = make("demo");
    const noOpS = make("demo");
    make("demo-destroy");
    return { firstS, noOpS };
  } finally {
    make("local-cloud-stop");
    fs.rmSync(state, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { json: { type: "boolean", default: false } } });
  const t = await benchDemo();
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ...t, goalS: NO_OP_DEMO_GOAL_S })}\n`);
  } else {
    process.stdout.write(
      `make demo, no-op run after a first one: ${t.noOpS.toFixed(1)} s (goal < ${NO_OP_DEMO_GOAL_S} s; the first run took ${t.firstS.toFixed(1)} s)\n`,
    );
  }
}

/** The real `make demo`, then again with nothing to do (the same at both sizes: it is the target users run). */
export const demoStudy: Study = {
  name: "demo",
  async run() {
    const demo = await benchDemo();
    return {
      rows: [
        {
          figure: "make demo: first run; no-op run after it (s)",
          ours: `${demo.firstS.toFixed(1)}; ${demo.noOpS.toFixed(1)}`,
          baseline: "-",
          ratio: "-",
          goal: `no-op < ${NO_OP_DEMO_GOAL_S} s: ${demo.noOpS < NO_OP_DEMO_GOAL_S ? "met" : "missed"}`,
        },
      ],
    };
  },
};

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench-demo: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
