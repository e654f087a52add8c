package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/objectstorage"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		www, err := objectstorage.NewStaticSite(ctx, "www", &objectstorage.StaticSiteArgs{
			Path: pulumi.String("./site"),
			Exclude: pulumi.StringArray{
				pulumi.String("**/*.map"),
			},
			CacheControl: pulumi.String("max-age=300"),
		})
		if err != nil {
			return err
		}
		ctx.Export("siteUrl", www.IndexUrl)
		ctx.Export("siteLayout", www.Layout)
		return nil
	})
}
