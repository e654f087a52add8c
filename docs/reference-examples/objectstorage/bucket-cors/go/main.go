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
		_, err = objectstorage.NewBucketCors(ctx, "siteCors", &objectstorage.BucketCorsArgs{
			Bucket: site.Name,
			Rules: objectstorage.BucketCorsRuleArray{
				&objectstorage.BucketCorsRuleArgs{
					AllowedOrigins: pulumi.StringArray{
						pulumi.String("https://www.example.com"),
					},
					AllowedMethods: objectstorage.BucketCorsRuleAllowedMethodArray{
						objectstorage.BucketCorsRuleAllowedMethodGET,
					},
					AllowedHeaders: pulumi.StringArray{
						pulumi.String("*"),
					},
					ExposeHeaders: pulumi.StringArray{
						pulumi.String("ETag"),
					},
					MaxAgeSeconds: pulumi.Int(3600),
				},
			},
		})
		if err != nil {
			return err
		}
		return nil
	})
}
