/** The data query resource classes users instantiate: `new krcloud.dataquery.Query("daily", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { dynamicProps, moduleAndType, outputKeys, stubProvider, withSecretOutputs, type InputArgs } from "../core";
import { dataSourceOutputs, type dataSourceInputs, type DataSourceOutputs } from "./data-source";
import { queryOutputs, type queryInputs, type QueryOutputs } from "./query";

type Outputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };

export type DataSourceArgs = InputArgs<Omit<z.input<ReturnType<typeof dataSourceInputs>>, "name"> & { name?: string }>;
export type QueryArgs = InputArgs<z.input<ReturnType<typeof queryInputs>>>;

/** A MySQL or PostgreSQL data source. The password is made a secret here, whatever the program passed. */
export class DataSource extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:dataquery:DataSource";
  constructor(name: string, args: DataSourceArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      stubProvider(DataSource.token),
      name,
      dynamicProps(name, { ...args, password: pulumi.secret(args.password) }, outputKeys(dataSourceOutputs())),
      withSecretOutputs(opts, ["password"]),
      ...moduleAndType(DataSource.token),
    );
  }
}
export interface DataSource extends Outputs<DataSourceOutputs> {}

/** SQL run once, and again only when it (or where it reads or writes) changes. */
export class Query extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:dataquery:Query";
  constructor(name: string, args: QueryArgs, opts?: pulumi.CustomResourceOptions) {
    super(stubProvider(Query.token), name, dynamicProps(name, args, outputKeys(queryOutputs())), opts, ...moduleAndType(Query.token));
  }
}
export interface Query extends Outputs<QueryOutputs> {}
