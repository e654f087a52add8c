/**
 * Generated malformed requests for every route of the local cloud's cache service (clusters,
 * shards, nodes, instance sets, parameter groups, backups): each gets a 4xx with an error body, never a 5xx,
 * and the local cloud keeps answering. What is generated and what each request must get:
 * tests/support/malformed/requests.ts; the run: tests/support/malformed/clouds.ts.
 */
import { malformedClouds, malformedTitle, PROJECT } from "../support/malformed/clouds";
import { fieldsOf, route, type Json, type Service } from "../support/malformed/requests";

const fuzz = malformedClouds();
const { api, creds, exists, ids } = fuzz;
let seq = 0;

const subnets = [{ id: "sn-a" }, { id: "sn-b" }];
const cacheCommon = { version: "7.0.15", port: 6379, flavorId: "redis.small", subnets, securityGroups: [{ id: "sg-1" }] };
const clusterBody = (name: string): Json => ({
  ...cacheCommon,
  name,
  parameterGroupId: "default.redis7.0.cluster",
  shardCount: 2,
  nodeCountPerShard: 2,
  subnetAssignments: [0, 1].map(() => ({ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] })),
});
const setBody = (name: string): Json => ({
  ...cacheCommon,
  instanceSetName: name,
  projectId: PROJECT,
  parameterGroupId: "default.redis7.0.standalone",
  replicas: 3,
  recoveryEnabled: false,
  subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }, { id: "sn-b" }] }],
});

const cache: Service = {
  name: "cache",
  key: "cache",
  base: () => fuzz.cloud.endpoints.cache!,
  async ensure(i) {
    const c = (method: string, path: string, body?: unknown) => api(method, `${fuzz.cloud.endpoints.cache!}/v1${path}`, creds.token!, body);
    const present =
      exists("cache", "parameter-group", i.group) &&
      exists("cache", "cluster", i.cluster) &&
      exists("cache", "shard", i.shard) &&
      exists("cache", "node", i.node) &&
      exists("cache", "instance-set", i.set) &&
      exists("cache", "instance", i.instance) &&
      exists("cache", "backup", i.backup);
    if (present) return;
    for (const r of fuzz.cloud.control.inventory())
      if (r.service === "cache" && r.projectId === PROJECT) fuzz.cloud.control.deleteResource("cache", r.kind, r.id);
    const n = ++seq;
    i.group = (await c("POST", "/parameter-groups", { parameterGroupId: "default.redis7.0.cluster", name: `fz-group-${n}` })).objectId;
    i.cluster = (await c("POST", "/clusters", clusterBody(`fz-cluster-${n}`))).objectId;
    const shards = (await c("GET", `/clusters/${i.cluster}/shards`)).shards as { id: string; nodes: { id: string; role: string }[] }[];
    i.shard = shards[0]!.id;
    i.node = shards[0]!.nodes.find((x) => x.role === "replica")!.id;
    i.set = (await c("POST", "/instance-sets", setBody(`fz-set-${n}`))).objectId;
    i.instance = ((await c("GET", `/instance-sets/${i.set}/instances`)).data as { objectId: string; role: string }[]).find(
      (x) => x.role === "replica",
    )!.objectId;
    i.primary = ((await c("GET", `/instance-sets/${i.set}/instances`)).data as { objectId: string; role: string }[]).find(
      (x) => x.role === "primary",
    )!.objectId;
    i.clusterName = `fz-cluster-${n}`;
    i.backup = (await c("POST", "/backups", { clusterId: i.cluster, name: `fz-backup-${n}` })).objectId;
  },
  routes: [
    route("ListVersions", "GET /v1/redis/versions", "token"),
    route("ListFlavors", "GET /v1/redis/flavors", "token"),
    route("ListClusters", "GET /v1/clusters", "token", { query: "parameterGroup={group}" }),
    route("GetCluster", "GET /v1/clusters/{cluster}", "token"),
    route("CreateCluster", "POST /v1/clusters", "token", {
      json: () => clusterBody(`fz-new-${++seq}`),
      fields: fieldsOf({
        name: "name",
        version: "string",
        port: "int",
        flavorId: "string",
        parameterGroupId: "string",
        subnets: "array",
        subnetAssignments: "array",
        securityGroups: "array",
        shardCount: "int",
        nodeCountPerShard: "int",
        description: "text?",
      }),
      invalid: [422],
    }),
    route("UpdateCluster", "PATCH /v1/clusters/{cluster}", "token", {
      json: () => ({ description: "fuzzed", backupSchedule: { cron: "0 3 * * *" } }),
      fields: fieldsOf({ description: "text?", backupSchedule: "object?" }),
    }),
    route("DeleteCluster", "DELETE /v1/clusters/{cluster}", "token", { query: "keepAutomaticBackups=false" }),
    route("RetryParameterGroupApply", "POST /v1/clusters/{cluster}/parameter-group/apply", "token", { invalid: [409] }),
    route("ListShards", "GET /v1/clusters/{cluster}/shards", "token"),
    route("AddShard", "POST /v1/clusters/{cluster}/shards", "token", {
      json: () => ({ nodeCount: 2, subnetAssignment: { primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] } }),
      fields: fieldsOf({ nodeCount: "int", subnetAssignment: "object" }),
    }),
    route("GetShard", "GET /v1/clusters/{cluster}/shards/{shard}", "token"),
    route("DeleteShard", "DELETE /v1/clusters/{cluster}/shards/{shard}", "token"),
    route("AddReplica", "POST /v1/clusters/{cluster}/shards/{shard}/nodes", "token", {
      json: () => ({ subnet: { id: "sn-b" } }),
      fields: fieldsOf({ subnet: "object" }),
    }),
    route("ListNodes", "GET /v1/clusters/{cluster}/shards/{shard}/nodes", "token"),
    route("GetNode", "GET /v1/clusters/{cluster}/shards/{shard}/nodes/{node}", "token"),
    route("DeleteNode", "DELETE /v1/clusters/{cluster}/shards/{shard}/nodes/{node}", "token"),
    route("CreateInstanceSet", "POST /v1/instance-sets", "token", {
      json: () => setBody(`fz-set-new-${++seq}`),
      fields: fieldsOf({
        instanceSetName: "name",
        version: "string",
        port: "int",
        replicas: "int",
        recoveryEnabled: "bool",
        subnets: "array",
        subnetAssignments: "array",
        projectId: "string",
      }),
      invalid: [422],
    }),
    route("UpdateInstanceSet", "PATCH /v1/instance-sets/{set}", "token", {
      json: () => ({ description: "fuzzed" }),
      fields: fieldsOf({ description: "text?", securityGroups: "array?" }),
    }),
    route("DeleteInstanceSet", "DELETE /v1/instance-sets/{set}", "token"),
    route("ListInstances", "GET /v1/instance-sets/{set}/instances", "token"),
    route("DeleteInstance", "DELETE /v1/instance-sets/{set}/instances/{instance}", "token"),
    route("PromoteReplica", "PATCH /v1/instance-sets/{set}/primary", "token", {
      json: () => ({ primaryId: ids.cache!.instance! }),
      fields: fieldsOf({ primaryId: "string" }),
    }),
    route("AddReplicaInstance", "PATCH /v1/instance-sets/{set}/replicas", "token", {
      json: () => ({ subnet: { id: "sn-b" } }),
      fields: fieldsOf({ subnet: "object" }),
    }),
    route("SetHighAvailability", "PATCH /v1/instance-sets/{set}/recovery", "token", {
      json: () => ({ enabled: false }),
      fields: fieldsOf({ enabled: "bool" }),
    }),
    route("CreateParameterGroup", "POST /v1/parameter-groups", "token", {
      json: () => ({ parameterGroupId: "default.redis7.0.cluster", name: `fz-pg-${++seq}`, description: "fuzz" }),
      fields: fieldsOf({ parameterGroupId: "string", name: "string", description: "text?" }),
      invalid: [404],
    }),
    route("ListParameterGroups", "GET /v1/parameter-groups", "token", { query: "engineVersion=7.0&clusterMode=enabled" }),
    route("GetParameterGroup", "GET /v1/parameter-groups/{group}", "token"),
    route("ModifyParameterGroup", "PATCH /v1/parameter-groups/{group}", "token", {
      json: () => ({ parameters: [{ parameterKey: "timeout", parameterValue: "30" }], applyMode: "parallel" }),
      fields: fieldsOf({ parameters: "array?", applyMode: "enum?", description: "text?" }),
    }),
    route("RollbackParameterGroup", "POST /v1/parameter-groups/{group}/rollback", "token", { invalid: [409] }),
    route("ResetParameterGroup", "POST /v1/parameter-groups/{group}/reset", "token", {
      json: () => ({ applyMode: "sequential" }),
      fields: fieldsOf({ applyMode: "enum" }),
    }),
    route("DeleteParameterGroup", "DELETE /v1/parameter-groups/{group}", "token", { invalid: [409] }),
    route("ListParameterGroupEvents", "GET /v1/parameter-groups/{group}/events", "token"),
    route("CreateBackup", "POST /v1/backups", "token", {
      json: () => ({ clusterId: ids.cache!.cluster!, name: `fz-backup-new-${++seq}` }),
      fields: fieldsOf({ clusterId: "string", name: "name" }),
      invalid: [404],
    }),
    route("ListBackups", "GET /v1/backups", "token", { query: "clusterName={clusterName}" }),
    route("GetBackup", "GET /v1/backups/{backup}", "token"),
    route("DeleteBackup", "DELETE /v1/backups/{backup}", "token"),
  ],
};

describe(cache.name, () => {
  test(malformedTitle(cache), () => fuzz.run(cache));
});
