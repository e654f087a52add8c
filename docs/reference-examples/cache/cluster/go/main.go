package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/cache"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		sessionsParams, err := cache.NewParameterGroup(ctx, "sessionsParams", &cache.ParameterGroupArgs{
			BaseParameterGroupId: pulumi.String("default.redis7.0.cluster"),
			Description:          pulumi.String("sessions, least recently used keys evicted first"),
			Parameters: pulumi.StringMap{
				"maxmemory-policy": pulumi.String("allkeys-lru"),
				"timeout":          pulumi.String("300"),
			},
		})
		if err != nil {
			return err
		}
		sessions, err := cache.NewCluster(ctx, "sessions", &cache.ClusterArgs{
			Version:          pulumi.String("7.0.15"),
			FlavorId:         pulumi.String("redis.small"),
			ParameterGroupId: sessionsParams.ID(),
			SubnetIds: pulumi.StringArray{
				pulumi.String("sn-a"),
				pulumi.String("sn-b"),
			},
			SecurityGroupIds: pulumi.StringArray{
				pulumi.String("sg-default"),
			},
			Shards: cache.ClusterShardArray{
				&cache.ClusterShardArgs{
					PrimarySubnetId: pulumi.String("sn-a"),
					ReplicaSubnetIds: pulumi.StringArray{
						pulumi.String("sn-b"),
					},
				},
				&cache.ClusterShardArgs{
					PrimarySubnetId: pulumi.String("sn-b"),
					ReplicaSubnetIds: pulumi.StringArray{
						pulumi.String("sn-a"),
					},
				},
			},
			BackupSchedule: &cache.ClusterBackupScheduleArgs{
				Cron:          pulumi.String("* 3 * * *"),
				RetentionDays: pulumi.Int(7),
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("sessionsEndpoint", sessions.PrimaryEndpoint)
		return nil
	})
}
