/**
 * The JSON Schema of the JSON report (`--format json`), shipped in the package as
 * `pulumi-krcloud/drift-report.schema.json` (dist/drift/report.schema.json).
 */
import schema from "./report.schema.json";

export const REPORT_SCHEMA: Readonly<Record<string, unknown>> = schema;
