import pulumi
import pulumi_krcloud as krcloud

config = pulumi.Config()
db_password = config.require("dbPassword")
shop = krcloud.dataquery.DataSource("shop",
    type=krcloud.dataquery.DataSourceType.MYSQL,
    instance_id="shop-db",
    username="reporter",
    password=db_password,
    description="the shop's orders")
pulumi.export("dataSourceName", shop.name)
