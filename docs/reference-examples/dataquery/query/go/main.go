package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/dataquery"
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/objectstorage"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		dbPassword := cfg.Require("dbPassword")
		site, err := objectstorage.NewBucket(ctx, "site", &objectstorage.BucketArgs{
			ForceDestroy: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		shop, err := dataquery.NewDataSource(ctx, "shop", &dataquery.DataSourceArgs{
			Type:        dataquery.DataSourceTypeMYSQL,
			InstanceId:  pulumi.String("shop-db"),
			Username:    pulumi.String("reporter"),
			Password:    pulumi.String(dbPassword),
			Description: pulumi.String("the shop's orders"),
		})
		if err != nil {
			return err
		}
		revenue, err := dataquery.NewQuery(ctx, "revenue", &dataquery.QueryArgs{
			Query:       pulumi.String("select region, sum(amount) as revenue from orders group by region"),
			DataSource:  shop.Name,
			Database:    pulumi.String("shop"),
			BucketName:  site.Name,
			Path:        pulumi.String("reports/revenue"),
			CaptureRows: pulumi.Int(10),
		})
		if err != nil {
			return err
		}
		ctx.Export("reportLocation", revenue.StorageUrl)
		ctx.Export("revenueRows", revenue.Rows)
		return nil
	})
}
