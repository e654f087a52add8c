import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const signatureVar = krcloud.kms.sign({
    keyId: "my-signing-key",
    content: "aGVsbG8gd29ybGQ=",
});
export const signature = signatureVar.then(signatureVar => signatureVar.signature);
