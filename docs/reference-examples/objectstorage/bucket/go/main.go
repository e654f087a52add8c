package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/objectstorage"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		assets, err := objectstorage.NewBucket(ctx, "assets", &objectstorage.BucketArgs{
			Acl: &objectstorage.BucketAclArgs{
				Public: objectstorage.BucketAclPublic_Read_Only,
				PublicReadAllowIpList: pulumi.StringArray{
					pulumi.String("203.0.113.0/24"),
				},
			},
			Metadata: pulumi.StringMap{
				"owner": pulumi.String("web-team"),
			},
			ForceDestroy: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		ctx.Export("assetsName", assets.Name)
		ctx.Export("assetsUrl", assets.Url)
		return nil
	})
}
