import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const config = new pulumi.Config();
const dbPassword = config.require("dbPassword");
const shop = new krcloud.dataquery.DataSource("shop", {
    type: krcloud.dataquery.DataSourceType.MYSQL,
    instanceId: "shop-db",
    username: "reporter",
    password: dbPassword,
    description: "the shop's orders",
});
export const dataSourceName = shop.name;
