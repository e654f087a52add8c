/**
 * The policy pack's program: `policy/pack/package.json` names this file as its main, so
 * `--policy-pack node_modules/pulumi-krcloud/policy/pack` runs it. @pulumi/policy serves the pack
 * as soon as it is constructed, which is why the library (index.ts) does not construct it.
 */
import { PolicyPack } from "@pulumi/policy";
import { krcloudPolicies, PACK_NAME } from ".";

new PolicyPack(PACK_NAME, { policies: krcloudPolicies() });
