/** Core helpers beside the operations (those are tests/unit/operations/): auto-names, waits with progress, the classes' secret inputs. */
import * as pulumi from "@pulumi/pulumi";
import { autoName, withSecretInputs } from "../../provider/core";

describe("autoName", () => {
  test("fits the length and character rules", () => {
    const rule = { property: "name", minLength: 4, maxLength: 20, lowerCase: true };
    expect(autoName("A", rule, (n) => "0".repeat(n))).toBe("a-0000000");
    expect(autoName("a-very-long-logical-name-indeed", rule, (n) => "f".repeat(n))).toBe("a-very-long-fffffff");
    expect(autoName("9lives", { ...rule, maxLength: 20 }, (n) => "1".repeat(n))).toBe("r9lives-1111111");
    expect(autoName("x", { ...rule, minLength: 12, suffixLength: 2 }, (n) => "2".repeat(n))).toHaveLength(12);
  });
});

describe("waitWithProgress", () => {
  test("prints a progress line when the state changes and at most every 10 s otherwise", async () => {
    const { waitWithProgress } = await import("../../provider/core");
    const states = ["Creating", "Creating", "Creating", "Creating", "Modifying", "Running"];
    let i = 0;
    let t = 0;
    const lines: string[] = [];
    const v = await waitWithProgress(
      { progress: (m) => lines.push(m) },
      {
        resource: 'cluster "web"',
        status: async () => ({ s: states[i++]! }),
        stateOf: (x) => x.s,
        target: ["Running"],
        minDelayMs: 4000,
        maxDelayMs: 4000,
        timeoutMs: 600_000,
        clock: { now: () => t, random: () => 0, sleep: async (ms) => void (t += ms) },
      },
    );
    expect(v).toEqual({ s: "Running" });
    expect(lines).toEqual([
      'cluster "web": Creating, waiting for Running (0s)',
      'cluster "web": Creating, waiting for Running (12s)',
      'cluster "web": Modifying, waiting for Running (16s)',
      'cluster "web": Running after 20s',
    ]);
  });
});

describe("resource class helpers", () => {
  test("withSecretInputs: each named property that is set becomes a secret, whatever the program passed; unset ones stay unset; others are untouched", async () => {
    const args = { password: "hunter2", metastore: undefined as string | undefined, host: "db.internal" };
    const out = withSecretInputs(args, ["password", "metastore"]);
    expect(pulumi.Output.isInstance(out.password)).toBe(true);
    expect(await pulumi.isSecret(out.password as unknown as pulumi.Output<string>)).toBe(true);
    expect(out.metastore).toBeUndefined();
    expect(out.host).toBe("db.internal");
    expect(args.password).toBe("hunter2");
  });
});
