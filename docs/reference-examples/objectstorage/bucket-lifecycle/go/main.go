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
		_, err = objectstorage.NewBucketLifecycle(ctx, "siteLifecycle", &objectstorage.BucketLifecycleArgs{
			Bucket: site.Name,
			Rules: objectstorage.BucketLifecycleRuleArray{
				&objectstorage.BucketLifecycleRuleArgs{
					Id:             pulumi.String("expire-logs"),
					Prefix:         pulumi.String("logs/"),
					Status:         objectstorage.BucketLifecycleRuleStatusEnabled,
					ExpirationDays: pulumi.Int(30),
				},
			},
		})
		if err != nil {
			return err
		}
		return nil
	})
}
