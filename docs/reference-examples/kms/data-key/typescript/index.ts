import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const dataKey = new krcloud.kms.DataKey("dataKey", {keyId: "my-key"});
export const dataKeyCiphertext = dataKey.ciphertext;
