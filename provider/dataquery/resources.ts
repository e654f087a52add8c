/** The data query resource classes users instantiate: `new krcloud.dataquery.Query("daily", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { dynamicProps, moduleAndType, outputKeys, stubProvider, withSecretInputs, withSecretOutputs, type AutoNamed, type InputArgs, type ResourceOutputs } from "../core";
import { dataSourceOutputs, type dataSourceInputs, type DataSourceOutputs } from "./data-source";
import { queryOutputs, type queryInputs, type QueryOutputs } from "./query";


export type DataSourceArgs = InputArgs<AutoNamed<z.input<ReturnType<typeof dataSourceInputs>>>>;
export type QueryArgs = InputArgs<z.input<ReturnType<typeof queryInputs>>>;

/** A MySQL or PostgreSQL data source. The password is made a secret here, whatever the program passed. */
export class DataSource extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:dataquery:DataSource";
  constructor(name: string, args: DataSourceArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      stubProvider(DataSource.token),
      name,
      dynamicProps(name, withSecretInputs(args, ["password"]), outputKeys(dataSourceOutputs())),
      withSecretOutputs(opts, ["password"]),
      ...moduleAndType(DataSource.token),
    );
  }
}
export interface DataSource extends ResourceOutputs<DataSourceOutputs> {}

/** SQL run once, and again only when it (or where it reads or writes) changes. */
export class Query extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:dataquery:Query";
  constructor(name: string, args: QueryArgs, opts?: pulumi.CustomResourceOptions) {
    super(stubProvider(Query.token), name, dynamicProps(name, args, outputKeys(queryOutputs())), opts, ...moduleAndType(Query.token));
  }
}
export interface Query extends ResourceOutputs<QueryOutputs> {}
