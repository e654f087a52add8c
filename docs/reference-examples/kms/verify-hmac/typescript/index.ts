import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const mac = krcloud.kms.createHmac({
    keyId: "my-mac-key",
    content: "aGVsbG8gd29ybGQ=",
});
const macCheck = mac.then(mac => krcloud.kms.verifyHmac({
    keyId: "my-mac-key",
    input: "aGVsbG8gd29ybGQ=",
    output: mac.hmac,
}));
export const macValid = macCheck.then(macCheck => macCheck.valid);
