import pulumi
import pulumi_krcloud as krcloud

config = pulumi.Config()
db_password = config.require("dbPassword")
site = krcloud.objectstorage.Bucket("site", force_destroy=True)
shop = krcloud.dataquery.DataSource("shop",
    type=krcloud.dataquery.DataSourceType.MYSQL,
    instance_id="shop-db",
    username="reporter",
    password=db_password,
    description="the shop's orders")
revenue = krcloud.dataquery.Query("revenue",
    query="select region, sum(amount) as revenue from orders group by region",
    data_source=shop.name,
    database="shop",
    bucket_name=site.name,
    path="reports/revenue",
    capture_rows=10)
pulumi.export("reportLocation", revenue.storage_url)
pulumi.export("revenueRows", revenue.rows)
