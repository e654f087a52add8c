/**
 * The floor of the dynamic door for `make bench` (scale/index.ts, door F): a dynamic provider that
 * calls nothing. The program's provider object is a stub of two one-line functions that require this
 * file (as krcloud's stub requires pulumi-krcloud/runtime): `call` for create, diff and read (told
 * apart by their number of arguments) and `remove`, so the code stored per resource is about the
 * size of krcloud's and the state bytes compare.
 *
 * create returns the outputs krcloud's provider recorded in the warm-up run ($KRCLOUD_BENCH_FLOOR,
 * `dynamic.outputs`) with the inputs and a name; diff compares the inputs with the recorded values;
 * read returns what it is given; delete does nothing.
 */
import * as fs from "node:fs";
import type * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;

let recorded: Props | undefined;
const outputs = (): Props =>
  (recorded ??= (JSON.parse(fs.readFileSync(process.env.KRCLOUD_BENCH_FLOOR ?? "", "utf8")) as { dynamic: { outputs: Props } }).dynamic.outputs);

export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const name = `${String(inputs.logicalName)}-${Math.random().toString(16).slice(2, 9)}`;
  return { id: name, outs: { ...outputs(), ...inputs, name } };
}

export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  return { changes: Object.keys(news).some((k) => k !== "__provider" && JSON.stringify(news[k]) !== JSON.stringify(olds[k])) };
}

export async function read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  return { id, props };
}

export async function remove(): Promise<void> {}

/** create(inputs), read(id, props), diff(id, olds, news). */
export function call(args: unknown[]): Promise<unknown> {
  if (args.length === 1) return create(args[0] as Props);
  if (args.length === 2) return read(args[0] as string, args[1] as Props);
  return diff(args[0] as string, args[1] as Props, args[2] as Props);
}
