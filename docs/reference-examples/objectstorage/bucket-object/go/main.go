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
		index, err := objectstorage.NewBucketObject(ctx, "index", &objectstorage.BucketObjectArgs{
			Bucket:      site.Name,
			Key:         pulumi.String("index.html"),
			Content:     pulumi.String("<h1>Hello from krcloud</h1>"),
			ContentType: pulumi.String("text/html"),
		})
		if err != nil {
			return err
		}
		_, err = objectstorage.NewBucketObject(ctx, "assetsFolder", &objectstorage.BucketObjectArgs{
			Bucket: site.Name,
			Key:    pulumi.String("assets"),
			Folder: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		ctx.Export("indexUrl", index.Url)
		return nil
	})
}
