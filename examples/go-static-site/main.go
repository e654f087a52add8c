// A public static website in krcloud object storage: a bucket and its index page.
package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/objectstorage"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		message := config.Get(ctx, "message")
		if message == "" {
			message = "<h1>Hello from Go and krcloud</h1>"
		}
		// Auto-named from the logical name (site-<random suffix>).
		site, err := objectstorage.NewBucket(ctx, "site", &objectstorage.BucketArgs{
			Acl:          &objectstorage.BucketAclArgs{Public: objectstorage.BucketAclPublic_Read_Only},
			Metadata:     pulumi.StringMap{"purpose": pulumi.String("go-static-site")},
			ForceDestroy: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		index, err := objectstorage.NewBucketObject(ctx, "index", &objectstorage.BucketObjectArgs{
			Bucket:      site.Name,
			Key:         pulumi.String("index.html"),
			Content:     pulumi.String(message),
			ContentType: pulumi.String("text/html"),
		})
		if err != nil {
			return err
		}
		ctx.Export("bucketName", site.Name)
		ctx.Export("url", index.Url)
		return nil
	})
}
