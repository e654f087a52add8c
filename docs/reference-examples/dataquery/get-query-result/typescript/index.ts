import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const config = new pulumi.Config();
const dbPassword = config.require("dbPassword");
const site = new krcloud.objectstorage.Bucket("site", {forceDestroy: true});
const shop = new krcloud.dataquery.DataSource("shop", {
    type: krcloud.dataquery.DataSourceType.MYSQL,
    instanceId: "shop-db",
    username: "reporter",
    password: dbPassword,
    description: "the shop's orders",
});
const revenue = new krcloud.dataquery.Query("revenue", {
    query: "select region, sum(amount) as revenue from orders group by region",
    dataSource: shop.name,
    database: "shop",
    bucketName: site.name,
    path: "reports/revenue",
    captureRows: 10,
});
const revenuePage = krcloud.dataquery.getQueryResultOutput({
    queryId: revenue.queryId,
});
export const revenueFirstPage = revenuePage.apply(revenuePage => revenuePage.rows);
