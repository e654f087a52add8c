package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/hadoop"
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
		nightly, err := hadoop.NewCluster(ctx, "nightly", &hadoop.ClusterArgs{
			ClusterVersion:   pulumi.String("HDE-2.0.1"),
			ClusterType:      hadoop.ClusterClusterTypeHadoop,
			KeypairName:      pulumi.String("my-keypair"),
			MasterFlavorName: pulumi.String("m2a.xlarge"),
			WorkerFlavorName: pulumi.String("m2a.xlarge"),
			WorkerCnt:        pulumi.Int(3),
			VpcId:            pulumi.String("vpc-main"),
			SubnetId:         pulumi.String("sn-main"),
			Configurations: hadoop.ClusterConfigurationArray{
				&hadoop.ClusterConfigurationArgs{
					Classification: pulumi.String("hive-site"),
					Properties: pulumi.StringMap{
						"hive.exec.parallel": pulumi.String("true"),
					},
				},
			},
			UserTask: &hadoop.ClusterUserTaskArgs{
				Type:              hadoop.ClusterUserTaskTypeHive,
				TerminationPolicy: hadoop.ClusterUserTaskTerminationPolicyOnSuccess,
				HiveQuery:         pulumi.String("select count(*) from orders"),
				LogBucketName:     site.Name,
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("nightlyStatus", nightly.Status)
		ctx.Export("nightlyLog", nightly.LogUrl)
		return nil
	})
}
