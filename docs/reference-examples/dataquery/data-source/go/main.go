package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/dataquery"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		dbPassword := cfg.Require("dbPassword")
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
		ctx.Export("dataSourceName", shop.Name)
		return nil
	})
}
