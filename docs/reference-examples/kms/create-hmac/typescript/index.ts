import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const macVar = krcloud.kms.createHmac({
    keyId: "my-mac-key",
    content: "aGVsbG8gd29ybGQ=",
});
export const mac = macVar.then(macVar => macVar.hmac);
