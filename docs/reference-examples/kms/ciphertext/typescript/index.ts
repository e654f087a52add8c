import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const config = new pulumi.Config();
const dbPassword = config.require("dbPassword");
const sealedPasswordResource = new krcloud.kms.Ciphertext("sealedPassword", {
    keyId: "my-key",
    plaintext: dbPassword,
    aad: "datasource=shop",
});
export const sealedPassword = sealedPasswordResource.ciphertext;
