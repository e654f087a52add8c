// The data query service: one line per resource (its class and args), then the lookups.
export { DataSource, type DataSourceArgs } from "./data-source";
export { Query, type QueryArgs } from "./query";
export * from "./functions";
