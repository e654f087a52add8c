/**
 * Fault matrix, data query and Hadoop rows: DataSource, Query and Hadoop Cluster × create, update,
 * read, delete × the faults of tests/support/faults/matrix.ts (a query with bad SQL and a Hadoop
 * create-failure as their terminal failures).
 */
import { defineMatrix } from "../support/faults/matrix";
import { faultRows } from "../support/faults/rows";

jest.setTimeout(120_000);

defineMatrix("dataquery-hadoop", faultRows("dataquery-hadoop"));
