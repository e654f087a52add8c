/**
 * A rotated access key, through the real CLI, on both doors (issue 38 item 4): a stack made with
 * access key A in its configuration; A is revoked (the control API) and a new key B is put in the
 * environment; then `pulumi refresh` and `pulumi destroy` as a user types them. Pulumi configures
 * the provider for them with the configuration the last `up` recorded (A):
 *
 * - with krcloud:projectId set, they work: the provider takes B once B's token names the project,
 *   and says so;
 * - without it, they fail before anything is read or forgotten, naming B's source and the one
 *   command that takes it (`pulumi refresh --run-program`, `pulumi destroy --run-program`), and
 *   that command works.
 */
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { accessKeyConfig, ENGINE_TEST_TIMEOUT_MS, expectFailure, stateResources } from "../harness/engine";
import { FAULTS_PROGRAM, NS, projectBed, stackInventory } from "../support/faults/reliability";
import { engineFile, YAML_SITE_RESOURCES, yamlProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "credentials-rotation", yaml: true, plugin: true });

type Door = "dynamic" | "native";

/** A stack on `door` with access key A in its configuration (and krcloud:projectId when `pinned`), after its first up. */
async function madeWithKeyA(door: Door, label: string, pinned: boolean) {
  const bed = await projectBed(engine.cloud, label);
  const extra: ConfigMap = pinned ? { "krcloud:projectId": { value: bed.project.projectId } } : {};
  let stack: Stack;
  if (door === "dynamic") {
    const dir = engine.sandbox.copyProgram(FAULTS_PROGRAM, `faults-${label}`);
    const program = { keyId: bed.keyId, instanceId: bed.instanceId, resultBucket: bed.resultBucket, res: "bucket,ds" };
    stack = await engine.sandbox.createStack(dir, label, {
      ...accessKeyConfig(engine.cloud, bed.project, extra),
      ...Object.fromEntries(Object.entries(program).map(([k, v]) => [`${NS}:${k}`, { value: v }])),
    });
  } else {
    const dir = engine.program(label, yamlProgram(`krcloud-test-rotation-${label}`, YAML_SITE_RESOURCES));
    stack = await engine.sandbox.createStack(dir, label, accessKeyConfig(engine.cloud, bed.project, extra));
  }
  expect((await stack.up({ color: "never" })).summary.result).toBe("succeeded");
  const made = await stackInventory(bed);
  expect(made.length).toBeGreaterThanOrEqual(2);
  return { bed, stack, made };
}

/** A revoked, B issued and put in the stack's environment. */
async function rotate(bed: Awaited<ReturnType<typeof projectBed>>, stack: Stack): Promise<{ credentialId: string; credentialSecret: string }> {
  await fetch(`${engine.cloud.controlUrl}/credentials/${bed.project.credentialId}`, { method: "DELETE" });
  const fresh = await bed.project.control.issueAccessKey(bed.project.projectId);
  Object.assign(stack.workspace.envVars, { KRCLOUD_CREDENTIAL_ID: fresh.credentialId, KRCLOUD_CREDENTIAL_SECRET: fresh.credentialSecret });
  return fresh;
}

describe.each<Door>(["dynamic", "native"])("the %s door", (door) => {
  test("krcloud:projectId set: plain refresh and destroy work with the environment's new key, and say so", async () => {
    const { bed, stack, made } = await madeWithKeyA(door, `${door === "dynamic" ? "dyn" : "yaml"}pin`, true);
    const fresh = await rotate(bed, stack);

    const refreshed = await stack.refresh({ color: "never" });
    expect(refreshed.summary.result).toBe("succeeded");
    expect(refreshed.stdout).toContain(
      `the access key "${bed.project.credentialId}" (krcloud:credentialId and krcloud:credentialSecret, as Pulumi handed the provider its configuration) was refused`,
    );
    expect(refreshed.stdout).toContain(
      `This run uses the access key "${fresh.credentialId}" (KRCLOUD_CREDENTIAL_ID and KRCLOUD_CREDENTIAL_SECRET) instead, of the same project`,
    );
    // Nothing dropped: every resource was read with the new key.
    expect(await stackInventory(bed)).toEqual(made);

    expect((await stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
    expect(await stackInventory(bed)).toEqual([]);
    for (const s of [bed.project.credentialSecret, fresh.credentialSecret]) expect(refreshed.stdout).not.toContain(s);
  });

  test("no krcloud:projectId: plain destroy and refresh stop before reading or forgetting anything, naming the new key's source and the one command; that command works", async () => {
    const { bed, stack, made } = await madeWithKeyA(door, `${door === "dynamic" ? "dyn" : "yaml"}free`, false);
    const fresh = await rotate(bed, stack);
    // The key moved to the environment, as the README's CI recipe keeps it.
    await stack.removeAllConfig(["krcloud:credentialId", "krcloud:credentialSecret"]);
    const recorded = async () => stateResources(await stack.exportStack()).map((r) => [r.urn, r.id, r.outputs]);
    const before = await recorded();

    for (const [cmd, run] of [
      ["pulumi destroy", () => stack.destroy({ color: "never" })],
      ["pulumi refresh", () => stack.refresh({ color: "never" })],
    ] as const) {
      const out = await expectFailure(run);
      expect(out).toContain(
        `the access key "${bed.project.credentialId}" (krcloud:credentialId and krcloud:credentialSecret) was refused by the identity service`,
      );
      expect(out).toContain(`Without --run-program, \`${cmd}\` configures the provider as the last \`pulumi up\` recorded it`);
      expect(out).toContain(
        `The environment holds another access key "${fresh.credentialId}" (KRCLOUD_CREDENTIAL_ID and KRCLOUD_CREDENTIAL_SECRET): run \`${cmd} --run-program\``,
      );
      expect(out).not.toContain(fresh.credentialSecret);
      // Nothing deleted, nothing forgotten.
      expect(await stackInventory(bed)).toEqual(made);
      expect(await recorded()).toEqual(before);
    }

    expect((await stack.refresh({ color: "never", runProgram: true })).summary.result).toBe("succeeded");
    expect(await stackInventory(bed)).toEqual(made);
    // That refresh recorded the stack's configuration as it is now: a plain destroy takes the new key.
    expect((await stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
    expect(await stackInventory(bed)).toEqual([]);
  });
});
