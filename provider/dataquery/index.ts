export { DataSource, Query, type DataSourceArgs, type QueryArgs } from "./resources";
export * from "./functions";
