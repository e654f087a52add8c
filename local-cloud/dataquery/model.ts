/** Data query's records (spec 03 B): database instances, the data sources over them, queries. */
import type { QueryOutcome } from "./engine";

export const SERVICE = "data-query";

export interface Instance {
  id: string;
  projectId: string;
  engine: "mysql" | "postgresql";
  /** Database name -> seed SQL. */
  databases: Record<string, string>;
  /** A real PostgreSQL or MariaDB server on loopback that holds the databases (real-server.ts). */
  url?: string;
}

export interface DataSource {
  name: string;
  projectId: string;
  type: "MYSQL" | "POSTGRESQL";
  scope: "PRIVATE" | "PUBLIC";
  description?: string;
  instanceId: string;
  username: string;
  databaseName?: string;
  creatorName: string;
}

export interface Query {
  id: string;
  projectId: string;
  sql: string;
  dataSource?: string;
  database?: string;
  bucketName: string;
  path: string;
  reuse: boolean;
  reuseExpireAt?: number;
  createdAt: number;
  completedAt?: number;
  outcome?: QueryOutcome;
  error?: string;
  storageUrl?: string;
  /** A stored result of another query this one reused. */
  reusedFrom?: string;
  aborted: boolean;
}
