import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const signature = krcloud.kms.sign({
    keyId: "my-signing-key",
    content: "aGVsbG8gd29ybGQ=",
});
const signatureCheck = signature.then(signature => krcloud.kms.verifySignature({
    keyId: "my-signing-key",
    input: "aGVsbG8gd29ybGQ=",
    output: signature.signature,
}));
export const signatureValid = signatureCheck.then(signatureCheck => signatureCheck.valid);
