/**
 * Fault matrix, cache rows: ParameterGroup, Cluster, Shard and InstanceSet × create, update, read,
 * delete × the faults of tests/support/faults/matrix.ts (simulated nodes; stuck and FAILED through
 * held transitions and a node turned FAILED while the resource waits).
 */
import { defineMatrix } from "../support/faults/matrix";
import { faultRows } from "../support/faults/rows";

jest.setTimeout(120_000);

defineMatrix("cache", faultRows("cache"));
