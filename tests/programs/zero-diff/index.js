"use strict";
/**
 * Every krcloud resource type through the dynamic classes, as `spec.json` beside this file declares
 * them (the tests write it: the zero-diff suite, the secrets scan, the drift-all stack of
 * tests/engine/drift-resources.test.ts; tests/support/zero-diff/ renders the same spec as a Pulumi
 * YAML program for the native plugin). Plain JavaScript, so that it runs unchanged on the package of
 * today and on an earlier release (tests/engine/previous-release.test.ts). Each resource is
 * `{ name, type, properties, options? }`:
 *
 *   type        the krcloud token, e.g. `krcloud:cache:Cluster` (the class krcloud.cache.Cluster)
 *   properties  the class's args; a string that is exactly `${other.prop}` is that resource's
 *               output (as in Pulumi YAML); `{"fn::fileAsset": path}` and `{"fn::stringAsset": text}`
 *               are assets; `{"fn::secret": value}` is the value as a secret
 *   options     `dependsOn` (logical names)
 *
 * Stack output `ids`: every resource's id under its logical name.
 */
const fs = require("node:fs");
const path = require("node:path");
const pulumi = require("@pulumi/pulumi");
const krcloud = require("pulumi-krcloud");

const spec = JSON.parse(fs.readFileSync(path.join(__dirname, "spec.json"), "utf8"));
const made = new Map();
const REF = /^\$\{([^.}]+)\.([^}]+)\}$/;

function resolve(v) {
  if (typeof v === "string") {
    const m = REF.exec(v);
    if (!m) return v;
    const target = made.get(m[1]);
    if (!target) throw new Error(`${v}: no resource "${m[1]}" declared before it`);
    return target[m[2]];
  }
  if (Array.isArray(v)) return v.map(resolve);
  if (v !== null && typeof v === "object") {
    if (typeof v["fn::fileAsset"] === "string") return new pulumi.asset.FileAsset(v["fn::fileAsset"]);
    if (typeof v["fn::stringAsset"] === "string") return new pulumi.asset.StringAsset(v["fn::stringAsset"]);
    if ("fn::secret" in v) return pulumi.secret(resolve(v["fn::secret"]));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
  }
  return v;
}

for (const r of spec.resources) {
  const [, mod, type] = r.type.split(":");
  const Class = krcloud[mod] && krcloud[mod][type];
  if (!Class) throw new Error(`${r.name}: pulumi-krcloud has no class for ${r.type}`);
  const dependsOn = ((r.options && r.options.dependsOn) || []).map((n) => made.get(n));
  made.set(r.name, new Class(r.name, resolve(r.properties), { dependsOn }));
}

exports.ids = Object.fromEntries([...made].map(([name, res]) => [name, res.id]));
