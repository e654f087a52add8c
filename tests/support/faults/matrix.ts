/**
 * The fault matrix (tests/faults): every resource type × create, update, read and delete × a fault
 * injected through the local cloud's control API (`POST /_control/faults`, held transitions, a
 * FAILED status), driven at the provider level by an engine stand-in that records state by the
 * engine's rules (sim-stack.ts). After each cell the local cloud's inventory of the cell's own
 * project is compared with the recorded state:
 *
 * - orphans: in the cloud, not in state (a shard no resource manages, a query run nobody recorded);
 * - duplicates: a second cloud resource of a kind the stack holds one of, an extra shard, a query
 *   run twice;
 * - ghosts: in state, not in the cloud (a ciphertext that does not decrypt counts as absent);
 *
 * and a failure's message must name the resource, the operation and the cause, without a
 * JavaScript stack. Then the user's next step runs (the fault cleared, the cause fixed: the same
 * `up`, `refresh` or `destroy` again) and everything must converge: the counts are 0 and a refresh
 * followed by a preview shows no change (after a destroy: nothing left).
 *
 * Each cell runs in a project of its own, so inventories never mix; the local cloud is shared.
 *
 * The columns and the rows' shape are in columns.ts, the cloud compared with the state
 * and the cells' environment in cloud.ts, one cell in cell.ts (all
 * re-exported here); the table and the jest suite are below.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { MatrixEnv, type Counts } from "./cloud";
import { notApplicable, runCell, verdict, type CellResult } from "./cell";
import { FAULT_NAMES, OPS, type FaultName, type Op, type TypeSpec } from "./columns";

export * from "./cell";
export * from "./cloud";
export * from "./columns";

// ---------------------------------------------------------------------------------------------
// The table

export function renderMatrix(results: readonly CellResult[], faults: readonly FaultName[] = FAULT_NAMES): string {
  const rows = new Map<string, Map<string, string>>();
  for (const r of results) {
    const row = `${r.type} | ${r.op}`;
    if (!rows.has(row)) rows.set(row, new Map());
    rows.get(row)!.set(r.fault, verdict(r));
  }
  const lines = [`| resource | op | ${faults.join(" | ")} |`, `|---|---|${faults.map(() => "---").join("|")}|`];
  for (const [row, cells] of rows) lines.push(`| ${row} | ${faults.map((f) => cells.get(f) ?? "").join(" | ")} |`);
  return lines.join("\n");
}

export function totals(results: readonly CellResult[]) {
  const run = results.filter((r) => !r.na);
  return {
    cells: run.length,
    recovered: run.filter((r) => verdict(r).startsWith("R") && passed(r)).length,
    failedCleanly: run.filter((r) => verdict(r).startsWith("F") && passed(r)).length,
    problems: run.filter((r) => !passed(r)).length,
    orphans: run.reduce((n, r) => n + r.final.orphans.length, 0),
    duplicates: run.reduce((n, r) => n + r.final.duplicates.length, 0),
    ghosts: run.reduce((n, r) => n + r.final.ghosts.length, 0),
    orphansBeforeNextStep: run.reduce((n, r) => n + r.after.orphans.length, 0),
    ms: run.reduce((n, r) => n + r.ms, 0),
  };
}

/** A cell passes when it recovered (R) or failed cleanly (F) and then converged; n/a cells pass. */
export function passed(r: CellResult): boolean {
  return r.na !== undefined || /^[RF]°?$/.test(verdict(r));
}

/** One line per cell that is not R or F, with what went wrong: for the test's failure message. */
export function describeProblems(results: readonly CellResult[]): string {
  return results
    .filter((r) => !passed(r))
    .map(
      (r) =>
        `${r.type} ${r.op} ${r.fault} [${verdict(r)}] fired=${r.fired} error=${r.error?.split("\n")[0] ?? "-"} next=${r.nextError?.split("\n")[0] ?? "-"} ` +
        `final=${JSON.stringify(r.final)} after=${JSON.stringify(r.after)} message=${JSON.stringify(r.message)} notes=${r.notes.join("; ")}`,
    )
    .join("\n");
}

// ---------------------------------------------------------------------------------------------
// The jest suite of a group of rows

/**
 * One test per applicable cell of `types` (n/a cells are only shown in the table); after the last,
 * the table and the totals are printed, and written as JSON to `$KRCLOUD_FAULT_MATRIX_JSON/<label>.json`
 * when that variable names a directory (docs/reliability.md is made from those files).
 */
export function defineMatrix(label: string, types: readonly TypeSpec[], faults: readonly FaultName[] = FAULT_NAMES): void {
  let env: MatrixEnv;
  const results: CellResult[] = [];
  const started = Date.now();
  // Read now: the local cloud's test harness (tests/support/local-cloud) hides every KRCLOUD_* variable while it runs.
  const dir = process.env.KRCLOUD_FAULT_MATRIX_JSON;
  beforeAll(async () => {
    env = await MatrixEnv.start();
  });
  afterAll(async () => {
    const all = types.flatMap((t) =>
      OPS.flatMap((op) =>
        faults.map((fault) => results.find((r) => r.type === t.token.replace(/^krcloud:/, "") && r.op === op && r.fault === fault) ?? naResult(t, op, fault)),
      ),
    );
    const sums = totals(all);
    const wall = Date.now() - started;
    console.log(`Fault matrix (${label}): ${sums.cells} cells in ${(wall / 1000).toFixed(1)} s\n\n${renderMatrix(all, faults)}\n\n${JSON.stringify(sums)}`);
    if (dir) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${label}.json`), JSON.stringify({ label, wallMs: wall, results: all }, null, 1));
    }
    await env?.close();
  });
  for (const t of types) {
    describe(t.token, () => {
      for (const op of OPS) {
        for (const fault of faults) {
          if (notApplicable(t, op, fault) !== undefined) continue;
          test(`${op} × ${fault}: nothing orphaned, duplicated or lost; the next step converges`, async () => {
            const r = await runCell(env, t, op, fault);
            results.push(r);
            if (!passed(r)) throw new Error(describeProblems([r]));
          });
        }
      }
    });
  }
}

function naResult(t: TypeSpec, op: Op, fault: FaultName): CellResult {
  const blank: Counts = { orphans: [], duplicates: [], ghosts: [] };
  return {
    type: t.token.replace(/^krcloud:/, ""),
    op,
    fault,
    na: notApplicable(t, op, fault) ?? "not run",
    fired: 0,
    after: blank,
    final: blank,
    converged: true,
    notes: [],
    ms: 0,
  };
}
