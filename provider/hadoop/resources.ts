/** The Hadoop resource class users instantiate: `new krcloud.hadoop.Cluster("etl", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { resourceArgs, type AutoNamed, type InputArgs, type ResourceOutputs } from "../core";
import { hadoopClusterOutputs, type hadoopClusterInputs, type HadoopClusterOutputs } from "./cluster";

export type ClusterArgs = InputArgs<AutoNamed<z.input<ReturnType<typeof hadoopClusterInputs>>>>;

/** A Hadoop cluster. The admin and metastore passwords are made secrets here, whatever the program passed. */
export class Cluster extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:hadoop:Cluster";
  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      ...resourceArgs(Cluster.token, name, args, hadoopClusterOutputs(), opts, {
        inputs: ["adminPassword", "metastore"],
        outputs: ["adminPassword", "metastore"],
      }),
    );
  }
}
export interface Cluster extends ResourceOutputs<HadoopClusterOutputs> {}
