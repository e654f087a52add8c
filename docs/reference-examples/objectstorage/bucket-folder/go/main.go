package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/objectstorage"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		site, err := objectstorage.NewBucket(ctx, "site", &objectstorage.BucketArgs{
			ForceDestroy: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		content, err := objectstorage.NewBucketFolder(ctx, "content", &objectstorage.BucketFolderArgs{
			Bucket: site.Name,
			Path:   pulumi.String("./site"),
			Prefix: pulumi.String("www/"),
			Exclude: pulumi.StringArray{
				pulumi.String("**/*.map"),
			},
			ContentTypes: pulumi.StringMap{
				".webmanifest": pulumi.String("application/manifest+json"),
			},
			CacheControl: pulumi.String("max-age=300"),
		})
		if err != nil {
			return err
		}
		ctx.Export("url", content.Url)
		ctx.Export("files", content.FileCount)
		return nil
	})
}
