/** The cache resource classes users instantiate: `new krcloud.cache.Cluster("sessions", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { resourceArgs, type AutoNamed, type InputArgs, type ResourceOutputs } from "../core";
import { clusterOutputs, type clusterInputs, type ClusterOutputs } from "./cluster";
import { instanceSetOutputs, type instanceSetInputs, type InstanceSetOutputs } from "./instance-set";
import { parameterGroupOutputs, type parameterGroupInputs, type ParameterGroupOutputs } from "./parameter-group";
import { shardOutputs, type shardInputs, type ShardOutputs } from "./shard";

export type ParameterGroupArgs = InputArgs<AutoNamed<z.input<ReturnType<typeof parameterGroupInputs>>>>;
export type ClusterArgs = InputArgs<AutoNamed<z.input<ReturnType<typeof clusterInputs>>>>;
export type ShardArgs = InputArgs<z.input<ReturnType<typeof shardInputs>>>;
export type InstanceSetArgs = InputArgs<AutoNamed<z.input<ReturnType<typeof instanceSetInputs>>>>;

/** A custom cache parameter group created from a default group. */
export class ParameterGroup extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:cache:ParameterGroup";
  constructor(name: string, args: ParameterGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(ParameterGroup.token, name, args, parameterGroupOutputs(), opts));
  }
}
export interface ParameterGroup extends ResourceOutputs<ParameterGroupOutputs> {}

/** A Redis cluster (cluster mode) whose shards and replicas follow the declared placements. Its database user (with the password) is made a secret here. */
export class Cluster extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:cache:Cluster";
  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(Cluster.token, name, args, clusterOutputs(), opts, { inputs: ["user"], outputs: ["user"] }));
  }
}
export interface Cluster extends ResourceOutputs<ClusterOutputs> {}

/** One shard of a cluster, managed apart from the Cluster resource. */
export class Shard extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:cache:Shard";
  constructor(name: string, args: ShardArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(Shard.token, name, args, shardOutputs(), opts));
  }
}
export interface Shard extends ResourceOutputs<ShardOutputs> {}

/** A Redis primary with replicas (cluster mode disabled). Its database user (with the password) is made a secret here. */
export class InstanceSet extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:cache:InstanceSet";
  constructor(name: string, args: InstanceSetArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(InstanceSet.token, name, args, instanceSetOutputs(), opts, { inputs: ["user"], outputs: ["user"] }));
  }
}
export interface InstanceSet extends ResourceOutputs<InstanceSetOutputs> {}
