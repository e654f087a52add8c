import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const versionsVar = krcloud.cache.getVersions({});
export const versions = versionsVar.then(versionsVar => versionsVar.versions);
