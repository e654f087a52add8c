"use strict";
/**
 * A stack of a fleet: one private, encrypted bucket with `objects` objects (config, default 8), plus
 * what config `plant` asks for, comma-separated: `public` a bucket readable by anyone (no IP allow
 * list), `plain` a bucket without encryption. Names carry the stack and config `suffix`, unique in
 * the project.
 */
const pulumi = require("@pulumi/pulumi");
const krcloud = require("pulumi-krcloud");

const config = new pulumi.Config();
const stack = pulumi.getStack();
const suffix = config.require("suffix");
const objects = config.getNumber("objects") ?? 8;
const plant = (config.get("plant") ?? "").split(",").filter(Boolean);
const encrypted = { encryption: { type: "managed" } };

const data = new krcloud.objectstorage.Bucket("data", { name: `${stack}-data-${suffix}`, ...encrypted, metadata: { team: "fleet" }, forceDestroy: true });
for (let i = 0; i < objects; i++) {
  new krcloud.objectstorage.BucketObject(`obj-${i}`, { bucket: data.name, key: `k/${i}.txt`, content: `${stack} ${i}\n` });
}
if (plant.includes("public")) new krcloud.objectstorage.Bucket("open", { name: `${stack}-open-${suffix}`, ...encrypted, acl: { public: "read-only" } });
if (plant.includes("plain")) new krcloud.objectstorage.Bucket("plain", { name: `${stack}-plain-${suffix}` });
