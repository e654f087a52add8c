/**
 * The example program of every reference page (tools/gen-reference.ts): one per resource and
 * function, each a complete Pulumi YAML program that runs as it is with the stack config of the
 * README's Configuration section, and the fixtures they take to exist in the project. Examples share
 * a logical name only for an identical declaration (the reference test previews them all as one
 * program).
 */
/**
 * What the examples take to exist already in the project (a real project has its KMS keys and
 * buckets made elsewhere). The reference test creates them in the local cloud first: KMS keys
 * through its control API (`PATCH /_control/resources/kms/key/<id>` with the patch), the bucket and
 * its object through the object storage API.
 */
export type ExampleFixture =
  | { service: "kms"; kind: "key"; id: string; patch: { type: "symmetric" | "asymmetric" | "mac" }; what: string }
  | { service: "object-storage"; kind: "bucket"; id: string; what: string }
  | { service: "object-storage"; kind: "object"; id: string; content: string; what: string };

export const EXAMPLE_FIXTURES: ExampleFixture[] = [
  { service: "kms", kind: "key", id: "my-key", patch: { type: "symmetric" }, what: "a symmetric KMS key" },
  { service: "kms", kind: "key", id: "my-signing-key", patch: { type: "asymmetric" }, what: "an asymmetric (signing) KMS key" },
  { service: "kms", kind: "key", id: "my-mac-key", patch: { type: "mac" }, what: "an HMAC KMS key" },
  { service: "object-storage", kind: "bucket", id: "shared-assets", what: "a bucket made outside the program" },
  { service: "object-storage", kind: "object", id: "shared-assets/reports/latest.csv", content: "region,revenue\nkr-central,165\n", what: "an object in it" },
];

interface Example {
  /** The program after `name:` and `runtime: yaml` (config, variables, resources, outputs). */
  program: string;
  /** What the reader must know or have for it to run. */
  note?: string;
}

// Declarations several examples share (identical wherever they appear).
const SITE = `  site:
    type: krcloud:objectstorage:Bucket
    properties:
      forceDestroy: true`;
const INDEX = `  index:
    type: krcloud:objectstorage:BucketObject
    properties:
      bucket: \${site.name}
      key: index.html
      content: <h1>Hello from krcloud</h1>
      contentType: text/html`;
const SESSIONS_PARAMS = `  sessionsParams:
    type: krcloud:cache:ParameterGroup
    properties:
      baseParameterGroupId: default.redis7.0.cluster
      description: sessions, least recently used keys evicted first
      parameters:
        maxmemory-policy: allkeys-lru
        timeout: "300"`;
const SESSIONS = `  sessions:
    type: krcloud:cache:Cluster
    properties:
      version: "7.0.15"
      flavorId: redis.small
      parameterGroupId: \${sessionsParams.id}
      subnetIds: [sn-a, sn-b]
      securityGroupIds: [sg-default]
      shards:
        - primarySubnetId: sn-a
          replicaSubnetIds: [sn-b]
        - primarySubnetId: sn-b
          replicaSubnetIds: [sn-a]
      backupSchedule:
        cron: "* 3 * * *"
        retentionDays: 7`;
const QUEUE = `  queue:
    type: krcloud:cache:InstanceSet
    properties:
      version: "7.0.15"
      flavorId: redis.small
      parameterGroupId: default.redis7.0.standalone
      subnetIds: [sn-a, sn-b, sn-c]
      securityGroupIds: [sg-default]
      primarySubnetId: sn-a
      replicaSubnetIds: [sn-b, sn-c]
      highAvailability: true
      backupSchedule:
        hour: 3
        retentionDays: 7`;
const DB_PASSWORD = `configuration:
  dbPassword:
    type: string
    secret: true`;
const SHOP = `  shop:
    type: krcloud:dataquery:DataSource
    properties:
      type: MYSQL
      instanceId: shop-db
      username: reporter
      password: \${dbPassword}
      description: the shop's orders`;
const REVENUE = `  revenue:
    type: krcloud:dataquery:Query
    properties:
      query: select region, sum(amount) as revenue from orders group by region
      dataSource: \${shop.name}
      database: shop
      bucketName: \${site.name}
      path: reports/revenue
      captureRows: 10`;
const NIGHTLY = `  nightly:
    type: krcloud:hadoop:Cluster
    properties:
      clusterVersion: HDE-2.0.1
      clusterType: hadoop
      keypairName: my-keypair
      masterFlavorName: m2a.xlarge
      workerFlavorName: m2a.xlarge
      workerCnt: 3
      vpcId: vpc-main
      subnetId: sn-main
      configurations:
        - classification: hive-site
          properties:
            hive.exec.parallel: "true"
      userTask:
        type: hive
        terminationPolicy: onSuccess
        hiveQuery: select count(*) from orders
        logBucketName: \${site.name}`;
const SEALED = `  sealedPassword:
    type: krcloud:kms:Ciphertext
    properties:
      keyId: my-key
      plaintext: \${dbPassword}
      aad: datasource=shop`;
const SIGNATURE = `  signature:
    fn::invoke:
      function: krcloud:kms:sign
      arguments:
        keyId: my-signing-key
        content: aGVsbG8gd29ybGQ=`;
const MAC = `  mac:
    fn::invoke:
      function: krcloud:kms:createHmac
      arguments:
        keyId: my-mac-key
        content: aGVsbG8gd29ybGQ=`;

const PASSWORD_NOTE = "Set the password first: `pulumi config set --secret dbPassword <password>`.";
const DB_NOTE = "`shop-db` stands for your MySQL database instance.";
const fixtureNote = (id: string): string => `\`${id}\` stands for ${EXAMPLE_FIXTURES.find((f) => f.id === id)!.what} in your project`;
const keyNote = (id: string): string => `${fixtureNote(id)}.`;

/** One example per resource and function. */
export const EXAMPLES: Record<string, Example> = {
  "krcloud:objectstorage:Bucket": {
    program: `resources:
  assets:
    type: krcloud:objectstorage:Bucket
    properties:
      acl:
        public: read-only
        publicReadAllowIpList: [203.0.113.0/24]
      metadata:
        owner: web-team
      forceDestroy: true
outputs:
  assetsName: \${assets.name}
  assetsUrl: \${assets.url}`,
  },
  "krcloud:objectstorage:BucketCors": {
    program: `resources:
${SITE}
  siteCors:
    type: krcloud:objectstorage:BucketCors
    properties:
      bucket: \${site.name}
      rules:
        - allowedOrigins: ["https://www.example.com"]
          allowedMethods: [GET]
          allowedHeaders: ["*"]
          exposeHeaders: [ETag]
          maxAgeSeconds: 3600`,
  },
  "krcloud:objectstorage:BucketLifecycle": {
    program: `resources:
${SITE}
  siteLifecycle:
    type: krcloud:objectstorage:BucketLifecycle
    properties:
      bucket: \${site.name}
      rules:
        - id: expire-logs
          prefix: logs/
          status: Enabled
          expirationDays: 30`,
  },
  "krcloud:objectstorage:BucketObject": {
    program: `resources:
${SITE}
${INDEX}
  assetsFolder:
    type: krcloud:objectstorage:BucketObject
    properties:
      bucket: \${site.name}
      key: assets
      folder: true
outputs:
  indexUrl: \${index.url}`,
  },
  "krcloud:objectstorage:getBucket": {
    program: `variables:
  sharedAssets:
    fn::invoke:
      function: krcloud:objectstorage:getBucket
      arguments:
        name: shared-assets
outputs:
  sharedAssetsObjects: \${sharedAssets.objectCount}
  sharedAssetsPublic: \${sharedAssets.acl.public}`,
    note: `${fixtureNote("shared-assets")}. (A bucket the same program creates is not there yet when \`pulumi preview\` runs the lookup: use that resource's outputs instead.)`,
  },
  "krcloud:objectstorage:getBuckets": {
    program: `variables:
  siteBuckets:
    fn::invoke:
      function: krcloud:objectstorage:getBuckets
      arguments:
        prefix: site-
outputs:
  siteBucketNames: \${siteBuckets.names}`,
  },
  "krcloud:objectstorage:getObjectStorageInfo": {
    program: `variables:
  storageInfo:
    fn::invoke:
      function: krcloud:objectstorage:getObjectStorageInfo
      arguments: {}
outputs:
  storageInfo: \${storageInfo}`,
  },
  "krcloud:objectstorage:getTempUrl": {
    program: `variables:
  reportLink:
    fn::invoke:
      function: krcloud:objectstorage:getTempUrl
      arguments:
        bucket: shared-assets
        key: reports/latest.csv
        expiresIn: 86400
outputs:
  reportLink: \${reportLink.url}`,
    note: `${fixtureNote("shared-assets")}, holding \`reports/latest.csv\`. The URL is a secret output; it stays the same for a day (\`expiresIn\`).`,
  },

  "krcloud:cache:ParameterGroup": {
    program: `resources:
${SESSIONS_PARAMS}
outputs:
  sessionsParamsSync: \${sessionsParams.syncStatus}`,
  },
  "krcloud:cache:Cluster": {
    program: `resources:
${SESSIONS_PARAMS}
${SESSIONS}
outputs:
  sessionsEndpoint: \${sessions.primaryEndpoint}`,
    note: "Subnet and security group ids stand for yours; `getVersions`, `getFlavors` and `getParameterGroups` list what the service offers.",
  },
  "krcloud:cache:Shard": {
    program: `resources:
${SESSIONS_PARAMS}
${SESSIONS}
  extraShard:
    type: krcloud:cache:Shard
    properties:
      clusterId: \${sessions.id}
      primarySubnetId: sn-a
      replicaSubnetIds: [sn-b]
outputs:
  extraShardSlots: \${extraShard.slots}`,
  },
  "krcloud:cache:InstanceSet": {
    program: `resources:
${QUEUE}
outputs:
  queueEndpoint: \${queue.primaryEndpoint}
  queueReadEndpoint: \${queue.readEndpoint}`,
  },
  "krcloud:cache:getCluster": {
    program: `resources:
${SESSIONS_PARAMS}
${SESSIONS}
variables:
  sessionsInfo:
    fn::invoke:
      function: krcloud:cache:getCluster
      arguments:
        id: \${sessions.id}
outputs:
  sessionsShardCount: \${sessionsInfo.shardCount}`,
  },
  "krcloud:cache:getClusters": {
    program: `variables:
  clusters:
    fn::invoke:
      function: krcloud:cache:getClusters
      arguments: {}
outputs:
  clusters: \${clusters.clusters}`,
  },
  "krcloud:cache:getFlavors": {
    program: `variables:
  flavors:
    fn::invoke:
      function: krcloud:cache:getFlavors
      arguments: {}
outputs:
  flavors: \${flavors.flavors}`,
  },
  "krcloud:cache:getInstances": {
    program: `resources:
${QUEUE}
variables:
  queueInstances:
    fn::invoke:
      function: krcloud:cache:getInstances
      arguments:
        instanceSetId: \${queue.id}
outputs:
  queueInstances: \${queueInstances.instances}`,
  },
  "krcloud:cache:getParameterGroup": {
    program: `variables:
  clusterDefaults:
    fn::invoke:
      function: krcloud:cache:getParameterGroup
      arguments:
        idOrName: default.redis7.0.cluster
outputs:
  clusterDefaultParameters: \${clusterDefaults.parameters}`,
  },
  "krcloud:cache:getParameterGroups": {
    program: `variables:
  defaultGroups:
    fn::invoke:
      function: krcloud:cache:getParameterGroups
      arguments:
        parameterGroupType: default
        clusterMode: enabled
        engineVersion: "7.0.15"
outputs:
  defaultGroups: \${defaultGroups.parameterGroups}`,
  },
  "krcloud:cache:getVersions": {
    program: `variables:
  versions:
    fn::invoke:
      function: krcloud:cache:getVersions
      arguments: {}
outputs:
  versions: \${versions.versions}`,
  },

  "krcloud:kms:Ciphertext": {
    program: `${DB_PASSWORD}
resources:
${SEALED}
outputs:
  sealedPassword: \${sealedPassword.ciphertext}`,
    note: `${keyNote("my-key")} ${PASSWORD_NOTE}`,
  },
  "krcloud:kms:DataKey": {
    program: `resources:
  dataKey:
    type: krcloud:kms:DataKey
    properties:
      keyId: my-key
outputs:
  dataKeyCiphertext: \${dataKey.ciphertext}`,
    note: keyNote("my-key"),
  },
  "krcloud:kms:decrypt": {
    program: `${DB_PASSWORD}
resources:
${SEALED}
variables:
  unsealed:
    fn::invoke:
      function: krcloud:kms:decrypt
      arguments:
        keyId: my-key
        ciphertext: \${sealedPassword.ciphertext}
        aad: datasource=shop
outputs:
  unsealed: \${unsealed.plaintext}`,
    note: `${keyNote("my-key")} ${PASSWORD_NOTE}`,
  },
  "krcloud:kms:sign": {
    program: `variables:
${SIGNATURE}
outputs:
  signature: \${signature.signature}`,
    note: `${keyNote("my-signing-key")} \`content\` is Base64 (\`hello world\`).`,
  },
  "krcloud:kms:verifySignature": {
    program: `variables:
${SIGNATURE}
  signatureCheck:
    fn::invoke:
      function: krcloud:kms:verifySignature
      arguments:
        keyId: my-signing-key
        input: aGVsbG8gd29ybGQ=
        output: \${signature.signature}
outputs:
  signatureValid: \${signatureCheck.valid}`,
    note: keyNote("my-signing-key"),
  },
  "krcloud:kms:createHmac": {
    program: `variables:
${MAC}
outputs:
  mac: \${mac.hmac}`,
    note: `${keyNote("my-mac-key")} \`content\` is Base64 (\`hello world\`).`,
  },
  "krcloud:kms:verifyHmac": {
    program: `variables:
${MAC}
  macCheck:
    fn::invoke:
      function: krcloud:kms:verifyHmac
      arguments:
        keyId: my-mac-key
        input: aGVsbG8gd29ybGQ=
        output: \${mac.hmac}
outputs:
  macValid: \${macCheck.valid}`,
    note: keyNote("my-mac-key"),
  },

  "krcloud:dataquery:DataSource": {
    program: `${DB_PASSWORD}
resources:
${SHOP}
outputs:
  dataSourceName: \${shop.name}`,
    note: `${DB_NOTE} ${PASSWORD_NOTE}`,
  },
  "krcloud:dataquery:Query": {
    program: `${DB_PASSWORD}
resources:
${SITE}
${SHOP}
${REVENUE}
outputs:
  reportLocation: \${revenue.storageUrl}
  revenueRows: \${revenue.rows}`,
    note: `${DB_NOTE} ${PASSWORD_NOTE}`,
  },
  "krcloud:dataquery:getDataSources": {
    program: `variables:
  dataSources:
    fn::invoke:
      function: krcloud:dataquery:getDataSources
      arguments: {}
outputs:
  dataSources: \${dataSources.dataSources}`,
  },
  "krcloud:dataquery:getQueryResult": {
    program: `${DB_PASSWORD}
resources:
${SITE}
${SHOP}
${REVENUE}
variables:
  revenuePage:
    fn::invoke:
      function: krcloud:dataquery:getQueryResult
      arguments:
        queryId: \${revenue.queryId}
outputs:
  revenueFirstPage: \${revenuePage.rows}`,
    note: `${DB_NOTE} ${PASSWORD_NOTE}`,
  },

  "krcloud:hadoop:Cluster": {
    program: `resources:
${SITE}
${NIGHTLY}
outputs:
  nightlyStatus: \${nightly.status}
  nightlyLog: \${nightly.logUrl}`,
    note: "A job cluster: it runs the Hive query, then terminates (its normal end). Key pair, VPC and subnet stand for yours.",
  },
  "krcloud:hadoop:getCluster": {
    program: `resources:
${SITE}
${NIGHTLY}
variables:
  nightlyInfo:
    fn::invoke:
      function: krcloud:hadoop:getCluster
      arguments:
        id: \${nightly.id}
outputs:
  nightlyWorkers: \${nightlyInfo.workerCnt}`,
  },
  "krcloud:hadoop:getClusterVms": {
    program: `resources:
${SITE}
${NIGHTLY}
variables:
  nightlyVms:
    fn::invoke:
      function: krcloud:hadoop:getClusterVms
      arguments:
        clusterId: \${nightly.id}
outputs:
  nightlyVms: \${nightlyVms.vms}`,
  },
  "krcloud:hadoop:getClusters": {
    program: `variables:
  hadoopClusters:
    fn::invoke:
      function: krcloud:hadoop:getClusters
      arguments:
        includeTerminated: true
outputs:
  hadoopClusters: \${hadoopClusters.clusters}`,
  },
};

/** The example program as the page shows it: a whole Pulumi.yaml. */
export function exampleProgram(token: string): string {
  const e = EXAMPLES[token];
  if (!e) throw new Error(`tools/reference-examples.ts has no example for ${token}: add one to EXAMPLES`);
  const [, mod, name] = token.split(":") as [string, string, string];
  const project = `${mod}-${name.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase())}-example`;
  return `name: ${project}\nruntime: yaml\n${e.program}\n`;
}
