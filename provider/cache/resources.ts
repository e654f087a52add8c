/** The cache resource classes users instantiate: `new krcloud.cache.Cluster("sessions", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { dynamicProps, moduleAndType, outputKeys, stubProvider, withSecretOutputs, type InputArgs } from "../core";
import { clusterOutputs, type clusterInputs, type ClusterOutputs } from "./cluster";
import { instanceSetOutputs, type instanceSetInputs, type InstanceSetOutputs } from "./instance-set";
import { parameterGroupOutputs, type parameterGroupInputs, type ParameterGroupOutputs } from "./parameter-group";
import { shardOutputs, type shardInputs, type ShardOutputs } from "./shard";

type Outputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };
type Named<T> = Omit<T, "name"> & { name?: string };

export type ParameterGroupArgs = InputArgs<Named<z.input<ReturnType<typeof parameterGroupInputs>>>>;
export type ClusterArgs = InputArgs<Named<z.input<ReturnType<typeof clusterInputs>>>>;
export type ShardArgs = InputArgs<z.input<ReturnType<typeof shardInputs>>>;
export type InstanceSetArgs = InputArgs<Named<z.input<ReturnType<typeof instanceSetInputs>>>>;

/** The database user's password is always a secret in state and in the CLI's output. */
function withSecretUser<A extends { user?: unknown }>(args: A): A {
  return args.user === undefined ? args : { ...args, user: pulumi.secret(args.user) };
}

/** A custom cache parameter group created from a default group. */
export class ParameterGroup extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:cache:ParameterGroup";
  constructor(name: string, args: ParameterGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(stubProvider(ParameterGroup.token), name, dynamicProps(name, args, outputKeys(parameterGroupOutputs())), opts, ...moduleAndType(ParameterGroup.token));
  }
}
export interface ParameterGroup extends Outputs<ParameterGroupOutputs> {}

/** A Redis cluster (cluster mode) whose shards and replicas follow the declared placements. */
export class Cluster extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:cache:Cluster";
  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super(stubProvider(Cluster.token), name, dynamicProps(name, withSecretUser(args), outputKeys(clusterOutputs())), withSecretOutputs(opts, ["user"]), ...moduleAndType(Cluster.token));
  }
}
export interface Cluster extends Outputs<ClusterOutputs> {}

/** One shard of a cluster, managed apart from the Cluster resource. */
export class Shard extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:cache:Shard";
  constructor(name: string, args: ShardArgs, opts?: pulumi.CustomResourceOptions) {
    super(stubProvider(Shard.token), name, dynamicProps(name, args, outputKeys(shardOutputs())), opts, ...moduleAndType(Shard.token));
  }
}
export interface Shard extends Outputs<ShardOutputs> {}

/** A Redis primary with replicas (cluster mode disabled). */
export class InstanceSet extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:cache:InstanceSet";
  constructor(name: string, args: InstanceSetArgs, opts?: pulumi.CustomResourceOptions) {
    super(stubProvider(InstanceSet.token), name, dynamicProps(name, withSecretUser(args), outputKeys(instanceSetOutputs())), withSecretOutputs(opts, ["user"]), ...moduleAndType(InstanceSet.token));
  }
}
export interface InstanceSet extends Outputs<InstanceSetOutputs> {}
