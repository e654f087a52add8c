import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const reportLinkVar = krcloud.objectstorage.getTempUrl({
    bucket: "shared-assets",
    key: "reports/latest.csv",
    expiresIn: 86400,
});
export const reportLink = reportLinkVar.then(reportLinkVar => reportLinkVar.url);
