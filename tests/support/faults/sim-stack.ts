/**
 * A stack as the Pulumi engine keeps it, for provider-level tests that must follow the engine's
 * state-recording rules exactly (tests/faults): the resources of a program are stepped in order
 * (check, then create, or diff and update / replace), and
 *
 * - a create that succeeds records its id, inputs and outputs;
 * - a create that fails with an error carrying `id` (and `properties`: the provider's partial
 *   failure, ErrorResourceInitFailed on the wire) records that id with those outputs; any other
 *   create error records nothing;
 * - an update that fails with `id` records the new inputs and the error's outputs; any other
 *   update error leaves the entry as it was;
 * - a delete that fails leaves the entry; `refresh` drops an entry whose read answers an empty id;
 * - every step runs `check` with the resource's URN (`__krcloudSeed`) and the stack's
 *   identity (`__krcloudStack`), as the resource classes do, so the `up` after a failure checks and
 *   creates with the same URN, as the real engine would, and a twin stack (the same name, another
 *   identity) derives its own;
 * - a replacement is checked a second time without the old inputs, and created from that second
 *   check (the engine recomputes defaults for a replacement: step_generator.go).
 *
 * The engine stops dependents after a failure; here a failed step ends the run (the programs
 * declare dependencies before dependents).
 */
import { randomUUID } from "node:crypto";
import { CREATE_KEY, URN_KEY, STACK_KEY } from "../../../provider/core/resource";
import { CheckFailed, type EngineResource } from "../local-cloud";

export type Props = Record<string, unknown>;

/** One resource of a program: its logical name, type and arguments (which may read what is recorded, as Outputs do). */
export interface Declared {
  logical: string;
  token: string;
  args: Props | ((s: SimStack) => Props);
}

export interface Entry {
  logical: string;
  token: string;
  id: string;
  inputs: Props;
  outputs: Props;
}

/** What a step did, per logical name, as `pulumi up` reports it. */
export type StepOp = "same" | "create" | "update" | "replace" | "delete";

/** An error thrown by a step, with the resource it came from. */
export class StepError extends Error {
  constructor(
    readonly logical: string,
    readonly op: StepOp | "read",
    readonly error: Error & Record<string, unknown>,
  ) {
    super(error.message);
  }
}

export class SimStack {
  /** The state: logical name -> entry, in creation order. */
  readonly entries = new Map<string, Entry>();
  /** Every create key any entry ever carried (a run that carries one of them is this stack's). */
  readonly createKeys = new Set<string>();
  /** Called after check and before create (a test arranges a failure of the create it is about to see). */
  beforeCreate?: (d: Declared, inputs: Props) => Promise<void>;
  /**
   * Replaced resources the engine keeps in state to delete: one whose replacement's create failed
   * after the replacement was recorded (a partial failure). The next `up` deletes them first.
   */
  readonly pendingDeletes: Entry[] = [];

  /**
   * @param identity the stack's identity (the id of its krcloud-stack provider resource, as the
   *   resource classes pass it): another one with the same `name` is a twin stack in another backend.
   */
  constructor(
    readonly name: string,
    private readonly resource: (token: string) => EngineResource,
    readonly identity: string = randomUUID(),
  ) {}

  /** The URN the resource classes compute, the spec of deterministic names and create keys. */
  urn(d: Pick<Declared, "logical" | "token">): string {
    const [pkg, mod, type] = d.token.split(":");
    return `urn:pulumi:${this.name}::faults::pulumi-nodejs:dynamic/${pkg}/${mod}:${type}::${d.logical}`;
  }

  /** The recorded id of a resource (an Output of it in a program). */
  id(logical: string): string {
    const e = this.entries.get(logical);
    if (!e) throw new Error(`${logical} is not in state`);
    return e.id;
  }

  output(logical: string, key: string): unknown {
    return this.entries.get(logical)?.outputs[key];
  }

  private argsOf(d: Declared): Props {
    return typeof d.args === "function" ? d.args(this) : d.args;
  }

  private async checked(d: Declared, olds: Props): Promise<Props> {
    const { inputs, failures } = await this.resource(d.token).check(olds, { ...this.argsOf(d), [URN_KEY]: this.urn(d), [STACK_KEY]: this.identity }, d.logical);
    if (failures.length) throw new StepError(d.logical, "create", new CheckFailed(failures) as never);
    return inputs;
  }

  private record(d: Declared, id: string, inputs: Props, outputs: Props): void {
    this.entries.set(d.logical, { logical: d.logical, token: d.token, id, inputs, outputs });
    if (typeof inputs[CREATE_KEY] === "string") this.createKeys.add(inputs[CREATE_KEY]);
  }

  private async create(d: Declared, inputs: Props): Promise<void> {
    await this.beforeCreate?.(d, inputs);
    try {
      const s = await this.resource(d.token).create(inputs);
      this.record(d, s.id, inputs, s.outputs);
    } catch (e) {
      const err = e as Error & Record<string, unknown>;
      if (typeof err.id === "string" && err.id !== "") this.record(d, err.id, inputs, (err.properties ?? {}) as Props);
      throw new StepError(d.logical, "create", err);
    }
  }

  /** `pulumi up` of `program`: resources no longer declared are deleted afterwards (dependents first). Returns the step per resource. */
  async up(program: readonly Declared[]): Promise<Record<string, StepOp>> {
    const steps: Record<string, StepOp> = {};
    while (this.pendingDeletes.length > 0) {
      const e = this.pendingDeletes[0]!;
      await this.deleteEntry(e);
      this.pendingDeletes.shift();
    }
    for (const d of program) {
      const old = this.entries.get(d.logical);
      const inputs = await this.checked(d, old?.inputs ?? {});
      if (!old) {
        await this.create(d, inputs);
        steps[d.logical] = "create";
        continue;
      }
      const r = this.resource(d.token);
      const diff = await r.diff(old.id, old.outputs, inputs);
      if (diff.replaces?.length) {
        // As the engine does: a replacement is checked again without the old inputs, and created from that.
        const fresh = await this.checked(d, {});
        if (diff.deleteBeforeReplace) {
          await this.deleteEntry(old);
          await this.create(d, fresh);
        } else {
          this.entries.delete(d.logical);
          try {
            await this.create(d, fresh);
          } catch (e) {
            if (!this.entries.has(d.logical)) this.entries.set(d.logical, old);
            else this.pendingDeletes.push(old);
            throw e;
          }
          await this.deleteEntry(old);
        }
        steps[d.logical] = "replace";
      } else if (diff.changes) {
        try {
          const outputs = await r.update(old.id, old.outputs, inputs);
          this.record(d, old.id, inputs, outputs);
        } catch (e) {
          const err = e as Error & Record<string, unknown>;
          if (typeof err.id === "string" && err.id !== "") this.record(d, old.id, inputs, (err.properties ?? {}) as Props);
          throw new StepError(d.logical, "update", err);
        }
        steps[d.logical] = "update";
      } else {
        this.entries.set(d.logical, { ...old, inputs });
        steps[d.logical] = "same";
      }
    }
    const declared = new Set(program.map((d) => d.logical));
    for (const e of [...this.entries.values()].reverse()) {
      if (declared.has(e.logical)) continue;
      await this.deleteEntry(e);
      steps[e.logical] = "delete";
    }
    return steps;
  }

  private async deleteEntry(e: Entry): Promise<void> {
    try {
      await this.resource(e.token).delete(e.id, e.outputs);
    } catch (err) {
      throw new StepError(e.logical, "delete", err as Error & Record<string, unknown>);
    }
    if (this.entries.get(e.logical) === e) this.entries.delete(e.logical);
  }

  /** `pulumi refresh`: each entry read; gone ones dropped. */
  async refresh(): Promise<void> {
    for (const e of [...this.entries.values()]) {
      let r: Awaited<ReturnType<EngineResource["read"]>>;
      try {
        r = await this.resource(e.token).read(e.id, e.outputs);
      } catch (err) {
        throw new StepError(e.logical, "read", err as Error & Record<string, unknown>);
      }
      if (r.id === "") this.entries.delete(e.logical);
      else this.entries.set(e.logical, { ...e, id: r.id, outputs: r.props, inputs: r.inputs ? { ...e.inputs, ...r.inputs } : e.inputs });
    }
  }

  /** `pulumi destroy`: dependents first. */
  async destroy(): Promise<void> {
    for (const e of [...this.entries.values()].reverse()) await this.deleteEntry(e);
  }

  /** `pulumi preview`: the step each declared resource would take (no change is made). */
  async plan(program: readonly Declared[]): Promise<Record<string, StepOp>> {
    const steps: Record<string, StepOp> = {};
    for (const d of program) {
      const old = this.entries.get(d.logical);
      if (!old) {
        steps[d.logical] = "create";
        continue;
      }
      const inputs = await this.checked(d, old.inputs);
      const diff = await this.resource(d.token).diff(old.id, old.outputs, inputs);
      steps[d.logical] = diff.replaces?.length ? "replace" : diff.changes ? "update" : "same";
    }
    for (const e of this.entries.values()) if (!program.some((d) => d.logical === e.logical)) steps[e.logical] = "delete";
    return steps;
  }
}
