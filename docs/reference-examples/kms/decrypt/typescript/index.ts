import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const config = new pulumi.Config();
const dbPassword = config.require("dbPassword");
const sealedPassword = new krcloud.kms.Ciphertext("sealedPassword", {
    keyId: "my-key",
    plaintext: dbPassword,
    aad: "datasource=shop",
});
const unsealedVar = krcloud.kms.decryptOutput({
    keyId: "my-key",
    ciphertext: sealedPassword.ciphertext,
    aad: "datasource=shop",
});
export const unsealed = unsealedVar.apply(unsealedVar => unsealedVar.plaintext);
