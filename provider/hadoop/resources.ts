/** The Hadoop resource class users instantiate: `new krcloud.hadoop.Cluster("etl", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { dynamicProps, moduleAndType, outputKeys, stubProvider, withSecretInputs, withSecretOutputs, type AutoNamed, type InputArgs, type ResourceOutputs } from "../core";
import { hadoopClusterOutputs, type hadoopClusterInputs, type HadoopClusterOutputs } from "./cluster";


export type ClusterArgs = InputArgs<AutoNamed<z.input<ReturnType<typeof hadoopClusterInputs>>>>;

/** A Hadoop cluster. The admin and metastore passwords are made secrets here, whatever the program passed. */
export class Cluster extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:hadoop:Cluster";
  constructor(name: string, args: ClusterArgs, opts?: pulumi.CustomResourceOptions) {
    const secretArgs = withSecretInputs(args, ["adminPassword", "metastore"]);
    super(stubProvider(Cluster.token), name, dynamicProps(name, secretArgs, outputKeys(hadoopClusterOutputs())), withSecretOutputs(opts, ["adminPassword", "metastore"]), ...moduleAndType(Cluster.token));
  }
}
export interface Cluster extends ResourceOutputs<HadoopClusterOutputs> {}
