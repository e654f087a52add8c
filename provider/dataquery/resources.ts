/** The data query resource classes users instantiate: `new krcloud.dataquery.Query("daily", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { resourceArgs, type AutoNamed, type InputArgs, type ResourceOutputs } from "../core";
import { dataSourceOutputs, type dataSourceInputs, type DataSourceOutputs } from "./data-source";
import { queryOutputs, type queryInputs, type QueryOutputs } from "./query";

export type DataSourceArgs = InputArgs<AutoNamed<z.input<ReturnType<typeof dataSourceInputs>>>>;
export type QueryArgs = InputArgs<z.input<ReturnType<typeof queryInputs>>>;

/** A MySQL or PostgreSQL data source. The password is made a secret here, whatever the program passed. */
export class DataSource extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:dataquery:DataSource";
  constructor(name: string, args: DataSourceArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(DataSource.token, name, args, dataSourceOutputs(), opts, { inputs: ["password"], outputs: ["password"] }));
  }
}
export interface DataSource extends ResourceOutputs<DataSourceOutputs> {}

/** SQL run once, and again only when it (or where it reads or writes) changes. */
export class Query extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:dataquery:Query";
  constructor(name: string, args: QueryArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(Query.token, name, args, queryOutputs(), opts));
  }
}
export interface Query extends ResourceOutputs<QueryOutputs> {}
