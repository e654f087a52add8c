package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/cache"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		queue, err := cache.NewInstanceSet(ctx, "queue", &cache.InstanceSetArgs{
			Version:          pulumi.String("7.0.15"),
			FlavorId:         pulumi.String("redis.small"),
			ParameterGroupId: pulumi.String("default.redis7.0.standalone"),
			SubnetIds: pulumi.StringArray{
				pulumi.String("sn-a"),
				pulumi.String("sn-b"),
				pulumi.String("sn-c"),
			},
			SecurityGroupIds: pulumi.StringArray{
				pulumi.String("sg-default"),
			},
			PrimarySubnetId: pulumi.String("sn-a"),
			ReplicaSubnetIds: pulumi.StringArray{
				pulumi.String("sn-b"),
				pulumi.String("sn-c"),
			},
			HighAvailability: pulumi.Bool(true),
			BackupSchedule: &cache.InstanceSetBackupScheduleArgs{
				Hour:          pulumi.Int(3),
				RetentionDays: pulumi.Int(7),
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("queueEndpoint", queue.PrimaryEndpoint)
		ctx.Export("queueReadEndpoint", queue.ReadEndpoint)
		return nil
	})
}
