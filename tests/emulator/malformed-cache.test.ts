/**
 * Generated malformed requests for every route of the local cloud's cache service (clusters,
 * shards, nodes, instance sets, parameter groups): each gets a 4xx with an error body, never a 5xx,
 * and the local cloud keeps answering. What is generated and what each request must get:
 * tests/support/malformed/requests.ts; the run: tests/support/malformed/clouds.ts.
 */
import { malformedClouds, malformedTitle, PROJECT } from "../support/malformed/clouds";
import { fieldsOf, type Json, type Service } from "../support/malformed/requests";

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
  json: () => true,
  async ensure() {
    const i = ids.cache!;
    const c = (method: string, path: string, body?: unknown) => api(method, `${fuzz.cloud.endpoints.cache!}/v1${path}`, creds.token!, body);
    const present =
      exists("cache", "parameter-group", i.group) &&
      exists("cache", "cluster", i.cluster) &&
      exists("cache", "shard", i.shard) &&
      exists("cache", "node", i.node) &&
      exists("cache", "instance-set", i.set) &&
      exists("cache", "instance", i.instance);
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
  },
  routes: [
    { op: "ListVersions", method: "GET", path: "/v1/redis/versions", auth: "token" },
    { op: "ListFlavors", method: "GET", path: "/v1/redis/flavors", auth: "token" },
    { op: "ListClusters", method: "GET", path: "/v1/clusters", auth: "token", query: "parameterGroup={group}" },
    { op: "GetCluster", method: "GET", path: "/v1/clusters/{cluster}", auth: "token" },
    {
      op: "CreateCluster",
      method: "POST",
      path: "/v1/clusters",
      auth: "token",
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
    },
    {
      op: "UpdateCluster",
      method: "PATCH",
      path: "/v1/clusters/{cluster}",
      auth: "token",
      json: () => ({ description: "fuzzed", backupSchedule: { cron: "0 3 * * *" } }),
      fields: fieldsOf({ description: "text?", backupSchedule: "object?" }),
    },
    { op: "DeleteCluster", method: "DELETE", path: "/v1/clusters/{cluster}", auth: "token", query: "keepAutomaticBackups=false" },
    { op: "RetryParameterGroupApply", method: "POST", path: "/v1/clusters/{cluster}/parameter-group/apply", auth: "token", invalid: [409] },
    { op: "ListShards", method: "GET", path: "/v1/clusters/{cluster}/shards", auth: "token" },
    {
      op: "AddShard",
      method: "POST",
      path: "/v1/clusters/{cluster}/shards",
      auth: "token",
      json: () => ({ nodeCount: 2, subnetAssignment: { primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] } }),
      fields: fieldsOf({ nodeCount: "int", subnetAssignment: "object" }),
    },
    { op: "GetShard", method: "GET", path: "/v1/clusters/{cluster}/shards/{shard}", auth: "token" },
    { op: "DeleteShard", method: "DELETE", path: "/v1/clusters/{cluster}/shards/{shard}", auth: "token" },
    {
      op: "AddReplica",
      method: "POST",
      path: "/v1/clusters/{cluster}/shards/{shard}/nodes",
      auth: "token",
      json: () => ({ subnet: { id: "sn-b" } }),
      fields: fieldsOf({ subnet: "object" }),
    },
    { op: "ListNodes", method: "GET", path: "/v1/clusters/{cluster}/shards/{shard}/nodes", auth: "token" },
    { op: "GetNode", method: "GET", path: "/v1/clusters/{cluster}/shards/{shard}/nodes/{node}", auth: "token" },
    { op: "DeleteNode", method: "DELETE", path: "/v1/clusters/{cluster}/shards/{shard}/nodes/{node}", auth: "token" },
    {
      op: "CreateInstanceSet",
      method: "POST",
      path: "/v1/instance-sets",
      auth: "token",
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
    },
    {
      op: "UpdateInstanceSet",
      method: "PATCH",
      path: "/v1/instance-sets/{set}",
      auth: "token",
      json: () => ({ description: "fuzzed" }),
      fields: fieldsOf({ description: "text?", securityGroups: "array?" }),
    },
    { op: "DeleteInstanceSet", method: "DELETE", path: "/v1/instance-sets/{set}", auth: "token" },
    { op: "ListInstances", method: "GET", path: "/v1/instance-sets/{set}/instances", auth: "token" },
    { op: "DeleteInstance", method: "DELETE", path: "/v1/instance-sets/{set}/instances/{instance}", auth: "token" },
    {
      op: "PromoteReplica",
      method: "PATCH",
      path: "/v1/instance-sets/{set}/primary",
      auth: "token",
      json: () => ({ primaryId: ids.cache!.instance! }),
      fields: fieldsOf({ primaryId: "string" }),
    },
    {
      op: "AddReplicaInstance",
      method: "PATCH",
      path: "/v1/instance-sets/{set}/replicas",
      auth: "token",
      json: () => ({ subnet: { id: "sn-b" } }),
      fields: fieldsOf({ subnet: "object" }),
    },
    {
      op: "SetHighAvailability",
      method: "PATCH",
      path: "/v1/instance-sets/{set}/recovery",
      auth: "token",
      json: () => ({ enabled: false }),
      fields: fieldsOf({ enabled: "bool" }),
    },
    {
      op: "CreateParameterGroup",
      method: "POST",
      path: "/v1/parameter-groups",
      auth: "token",
      json: () => ({ parameterGroupId: "default.redis7.0.cluster", name: `fz-pg-${++seq}`, description: "fuzz" }),
      fields: fieldsOf({ parameterGroupId: "string", name: "string", description: "text?" }),
      invalid: [404],
    },
    { op: "ListParameterGroups", method: "GET", path: "/v1/parameter-groups", auth: "token", query: "engineVersion=7.0&clusterMode=enabled" },
    { op: "GetParameterGroup", method: "GET", path: "/v1/parameter-groups/{group}", auth: "token" },
    {
      op: "ModifyParameterGroup",
      method: "PATCH",
      path: "/v1/parameter-groups/{group}",
      auth: "token",
      json: () => ({ parameters: [{ parameterKey: "timeout", parameterValue: "30" }], applyMode: "parallel" }),
      fields: fieldsOf({ parameters: "array?", applyMode: "enum?", description: "text?" }),
    },
    { op: "RollbackParameterGroup", method: "POST", path: "/v1/parameter-groups/{group}/rollback", auth: "token", invalid: [409] },
    {
      op: "ResetParameterGroup",
      method: "POST",
      path: "/v1/parameter-groups/{group}/reset",
      auth: "token",
      json: () => ({ applyMode: "sequential" }),
      fields: fieldsOf({ applyMode: "enum" }),
    },
    { op: "DeleteParameterGroup", method: "DELETE", path: "/v1/parameter-groups/{group}", auth: "token", invalid: [409] },
    { op: "ListParameterGroupEvents", method: "GET", path: "/v1/parameter-groups/{group}/events", auth: "token" },
  ],
};

describe(cache.name, () => {
  test(malformedTitle(cache), () => fuzz.run(cache));
});
