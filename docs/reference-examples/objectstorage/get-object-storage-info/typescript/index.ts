import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const storageInfoVar = krcloud.objectstorage.getObjectStorageInfo({});
export const storageInfo = storageInfoVar;
