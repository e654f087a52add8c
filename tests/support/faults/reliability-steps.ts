/**
 * Steps the reliability, ownership and credentials engine files share: a `pulumi up` killed with
 * SIGKILL mid-run (reliability-kill.test.ts, ownership.test.ts), and what an audit of a stack's
 * state against the cloud found wrong (tests/support/reliability.ts `audit`).
 */
import type { Sandbox } from "../../harness/engine";
import { descendants, endProcesses, spawnPulumi, until, type Bed, type CliEnd } from "./reliability";

/** What the audit finds wrong: resources outside state, made twice, or recorded but gone. */
export interface Findings {
  orphans: string[];
  duplicates: string[];
  ghosts: string[];
}

/** An audit that finds nothing wrong. */
export const NONE: Findings = { orphans: [], duplicates: [], ghosts: [] };

/** The findings of an audit, without the rest it tells (its entries and pending operations). */
export function findings(a: Findings): Findings {
  return { orphans: a.orphans, duplicates: a.duplicates, ghosts: a.ghosts };
}

/**
 * `pulumi up` of the bed's stack, SIGKILLed once `ready` says so (`what`: what it waits for), the
 * CLI alone, as `kill -9 <pid>` does (`killedPulumi`).
 */
export async function killedUp(sandbox: Sandbox, bed: Pick<Bed, "dir" | "stackName">, what: string, ready: () => Promise<boolean>): Promise<void> {
  const ended = await killedPulumi(sandbox, ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", bed.stackName], bed.dir, what, ready);
  expect(ended.signal).toBe("SIGKILL");
}

/**
 * `pulumi <args>` in `cwd`, SIGKILLed once `ready` says so (`what`: what it waits for), the CLI
 * alone, as `kill -9 <pid>` does; it fails if the CLI ends before. Its language host and provider
 * live on after that, still waiting on the cloud; they are ended by their ids, as a crash of the
 * machine would end them, so that nothing but the next command touches the cloud.
 */
export async function killedPulumi(sandbox: Sandbox, args: string[], cwd: string, what: string, ready: () => Promise<boolean>): Promise<CliEnd> {
  const run = spawnPulumi(sandbox, args, cwd);
  let left: number[] = [];
  try {
    await until(what, async () => {
      if (run.child.exitCode !== null) throw new Error(`pulumi ${args[0]} ended before it was killed:\n${run.output()}`);
      return ready();
    });
    left = descendants(run.child.pid!);
    run.child.kill("SIGKILL");
    return await run.done;
  } finally {
    endProcesses(left.length ? left : descendants(run.child.pid ?? -1));
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  }
}
