import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const dataSourcesVar = krcloud.dataquery.getDataSources({});
export const dataSources = dataSourcesVar.then(dataSourcesVar => dataSourcesVar.dataSources);
