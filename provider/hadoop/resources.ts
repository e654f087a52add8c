/** The Hadoop resource class users instantiate: `new krcloud.hadoop.Cluster("etl", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { dynamicProps, moduleAndType, outputKeys, stubProvider, withSecretOutputs, type InputArgs } from "../core";
import { hadoopClusterOutputs, type hadoopClusterInputs, type HadoopClusterOutputs } from "./cluster";

type Outputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };

export type ClusterArgs = InputArgs<Omit<z.input<ReturnType<typeof hadoopClusterInputs>>, "name"> & { name?: string }>;

/** A Hadoop cluster. The admin and metastore passwords are made secrets here, whatever the program passed. */
export class Cluster extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:hadoop:Cluster";
  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    const secretArgs = {
      ...args,
      ...(args.adminPassword !== undefined ? { adminPassword: pulumi.secret(args.adminPassword) } : {}),
      ...(args.metastore !== undefined ? { metastore: pulumi.secret(args.metastore) } : {}),
    };
    super(stubProvider(Cluster.token), name, dynamicProps(name, secretArgs, outputKeys(hadoopClusterOutputs())), withSecretOutputs(opts, ["adminPassword", "metastore"]), ...moduleAndType(Cluster.token));
  }
}
export interface Cluster extends Outputs<HadoopClusterOutputs> {}
