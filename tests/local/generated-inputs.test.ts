/**
 * Bad input, generated (#18). For every resource type, fast-check derives inputs from the rules of
 * its definition's input schema (tests/support/inputs/rules.ts walks the zod schema: types, lengths,
 * patterns, ranges, enums, array and record rules, strict objects, required properties) and from
 * its cross-field rules (by hand, in each type's fixture: tests/resources/<module>/<noun>.ts):
 * - each input that breaks one rule is refused in `check`, with a failure naming the property path
 *   the engine shows (`shards[1].replicaSubnetIds`) and a reason naming the rule, and not one request
 *   reaches the local cloud;
 * - inputs generated the same way that keep every rule are accepted, again without a request.
 * The spec is fixed; FUZZ_SEED and FUZZ_RUNS (runs per rule) vary it.
 */
import fc, { type Arbitrary } from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { allDefinitions, findDefinition } from "../../provider/registry";
import * as fixtures from "../resources";
import type { BrokenInput, TypeRules } from "../support/inputs/cross-field";
import {
  applyViolation,
  fillersAlong,
  readField,
  refinedContainers,
  schemaPathText,
  validValue,
  violations,
  type Field,
  type Input,
} from "../support/inputs/rules";
import { startTestCloud, type EngineResource, type TestCloud } from "../support/local-cloud";

const SEED = Number(process.env.FUZZ_SEED ?? 18);
const RUNS_PER_RULE = Number(process.env.FUZZ_RUNS ?? 4);
const VALID_RUNS = 25 * RUNS_PER_RULE;
// Each test takes a few seconds on an idle machine; the margin is for a machine shared with other jobs.
jest.setTimeout(180_000);

const DIR = mkdtempSync(path.join(tmpdir(), "krcloud-generated-inputs-"));
const FILE = path.join(DIR, "content.txt");
const RULES = fixtures.crossFieldRules({ file: FILE });
const VALID_INPUTS = fixtures.validInputs();

/** Inputs that keep every rule: the type's valid inputs with any of their properties generated anew, then `keep`. */
function validInputs(root: Field, base: Input, rules: TypeRules): Arbitrary<Input> {
  const keys = root.node.kind === "object" ? Object.keys(root.node.shape) : [];
  const fresh = validValue(root, [], { values: rules.values }) as Arbitrary<Input>;
  return fc.tuple(fresh, fc.array(fc.boolean(), { minLength: keys.length, maxLength: keys.length })).map(([f, pick]) => {
    const out = structuredClone(base);
    keys.forEach((k, i) => {
      if (!pick[i]) return;
      if (f[k] === undefined) delete out[k];
      else out[k] = f[k];
    });
    rules.keep?.(out);
    return out;
  });
}

interface Tally {
  invalid: number;
  valid: number;
  rules: number;
}

describe("generated inputs: check enforces every rule of every resource type, without a request", () => {
  let cloud: TestCloud;
  const tally = new Map<string, Tally>();
  const started = Date.now();

  beforeAll(async () => {
    writeFileSync(FILE, "hello from a file\n");
    cloud = await startTestCloud({ cacheEngine: "simulated" });
  });

  afterAll(async () => {
    const rows = [...tally.entries()].map(
      ([t, n]) => `  ${t.padEnd(38)} ${String(n.rules).padStart(5)} ${String(n.invalid).padStart(8)} ${String(n.valid).padStart(6)}`,
    );
    const total = [...tally.values()].reduce((a, n) => ({ rules: a.rules + n.rules, invalid: a.invalid + n.invalid, valid: a.valid + n.valid }), {
      rules: 0,
      invalid: 0,
      valid: 0,
    });
    process.stdout.write(
      [
        `generated inputs (seed ${SEED}, ${RUNS_PER_RULE} per rule):`,
        `  ${"type".padEnd(38)} ${"rules".padStart(5)} ${"invalid".padStart(8)} ${"valid".padStart(6)}`,
        ...rows,
        `  ${"total".padEnd(38)} ${String(total.rules).padStart(5)} ${String(total.invalid).padStart(8)} ${String(total.valid).padStart(6)}  in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        "",
      ].join("\n"),
    );
    await cloud?.close();
    rmSync(DIR, { recursive: true, force: true });
  });

  /**
   * Runs check as the engine does and returns its failures; fails if a request reached the local
   * cloud. A definition whose check reads the cloud (`checkWithCloud`: a parameter group's base
   * catalogue) may read, never change: only GET requests (and the token it signs in with).
   */
  async function check(r: EngineResource, input: Input) {
    const before = cloud.totalRequests();
    const cursor = cloud.logCursor();
    const { failures } = await r.check({}, input, "gen");
    const sent = cloud.totalRequests() - before;
    const reads = findDefinition(r.token)?.checkWithCloud !== undefined;
    const changes = cloud.anyRequestsSince(cursor).filter((e) => e.method !== "GET" && !(e.service === "identity" && e.method === "POST"));
    if (reads ? changes.length !== 0 : sent !== 0) {
      throw new Error(`check sent ${sent} request(s) to the local cloud${reads ? `, ${changes.length} of them not reads` : ""}`);
    }
    return failures;
  }

  async function refused(r: EngineResource, b: BrokenInput): Promise<void> {
    const failures = await check(r, b.input);
    // The failure names the top-level input (what the engine shows the value of); its reason starts with the full path.
    const prefix = `${b.path || "inputs"}: `;
    const top = /^[^.[]*/.exec(b.path)![0];
    const at = failures.filter((f) => f.property === top && f.reason.startsWith(prefix));
    const missing = b.texts.filter((t) => !at.some((f) => f.reason.includes(t)));
    if (at.length === 0 || missing.length > 0) {
      throw new Error(
        `expected a failure at "${b.path}" naming ${JSON.stringify(missing.length ? missing : b.texts)}; check returned ${JSON.stringify(failures)} for ${JSON.stringify(b.input).slice(0, 1500)}`,
      );
    }
  }

  /** One line per rule broken: its name, fast-check's replay data and the first counterexample's verdict. */
  function failure(name: string, e: unknown): string {
    const err = e as Error & { cause?: unknown };
    const replay = /\{ seed: [^}]*\}/.exec(err.message)?.[0] ?? "";
    const cause = err.cause instanceof Error ? err.cause.message : err.message;
    return `- ${name} ${replay.replace(/path: "([^"]{0,40})[^"]*"/, 'path: "$1…"')}\n  ${cause}`;
  }

  test("every resource type is generated for", () => {
    expect(
      allDefinitions()
        .map((d) => d.token)
        .sort(),
    ).toEqual(Object.keys(RULES).sort());
  });

  for (const def of allDefinitions()) {
    describe(def.token, () => {
      const root = readField(def.inputs());
      const rules = RULES[def.token]!;
      const base = VALID_INPUTS[def.token]!;
      const valid = validInputs(root, base, rules);
      const count = (k: keyof Tally, n = 1) => {
        const t = tally.get(def.token) ?? { invalid: 0, valid: 0, rules: 0 };
        t[k] += n;
        tally.set(def.token, t);
      };

      test("every refinement of the schema has a hand-written cross-field rule", () => {
        const written = new Set(rules.rules.map((r) => r.at));
        expect(refinedContainers(root).filter((at) => !written.has(at))).toEqual([]);
      });

      test("each input breaking one rule of the schema is refused in check, naming the property and the rule", async () => {
        const r = await cloud.resource(def.token);
        const sites = violations(root, { skipMissing: def.autoName ? [def.autoName.property] : [], values: rules.values }).filter(
          (v) => !(v.at.length === 0 && v.kind === "type"),
        );
        const failed: string[] = [];
        for (const v of sites) {
          const arb = fc
            .tuple(valid, v.make, fillersAlong(root, v.at, { values: rules.values }), fc.nat())
            .map(([input, make, fillers, pick]) => applyViolation(root, input, v, make, fillers, pick));
          const name = `${schemaPathText(v.at) || "(inputs)"} ${v.kind}`;
          await fc
            .assert(
              fc.asyncProperty(arb, (b) => (count("invalid"), refused(r, b))),
              { seed: SEED, numRuns: RUNS_PER_RULE, endOnFailure: true },
            )
            .catch((e: unknown) => failed.push(failure(name, e)));
        }
        count("rules", sites.length);
        if (failed.length) throw new Error(`${failed.length} of ${sites.length} rules not enforced as generated:\n${failed.join("\n")}`);
      });

      test("each input breaking one cross-field rule is refused in check, naming the property and the rule", async () => {
        const r = await cloud.resource(def.token);
        const failed: string[] = [];
        for (const rule of rules.rules) {
          const arb = fc.tuple(valid, rule.break).map(([input, make]) => make(structuredClone(input)));
          await fc
            .assert(
              fc.asyncProperty(arb, (b) => (count("invalid"), refused(r, b))),
              { seed: SEED, numRuns: RUNS_PER_RULE, endOnFailure: true },
            )
            .catch((e: unknown) => failed.push(failure(rule.rule, e)));
        }
        count("rules", rules.rules.length);
        if (failed.length) throw new Error(`${failed.length} of ${rules.rules.length} cross-field rules not enforced:\n${failed.join("\n")}`);
      });

      test("inputs keeping every rule are accepted in check", async () => {
        const r = await cloud.resource(def.token);
        await fc.assert(
          fc.asyncProperty(valid, async (input) => {
            count("valid");
            const failures = await check(r, input);
            if (failures.length) throw new Error(`refused: ${JSON.stringify(failures)} for ${JSON.stringify(input).slice(0, 1500)}`);
          }),
          { seed: SEED, numRuns: VALID_RUNS, endOnFailure: true },
        );
      });
    });
  }
});
