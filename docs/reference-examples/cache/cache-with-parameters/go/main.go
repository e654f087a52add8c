package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/cache"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		sessionsCache, err := cache.NewCacheWithParameters(ctx, "sessionsCache", &cache.CacheWithParametersArgs{
			BaseParameterGroupId: pulumi.String("default.redis7.0.cluster"),
			Parameters: pulumi.StringMap{
				"maxmemory-policy": pulumi.String("allkeys-lru"),
				"timeout":          pulumi.String("300"),
			},
			Cluster: &cache.CacheWithParametersClusterArgs{
				Version:  pulumi.String("7.0.15"),
				FlavorId: pulumi.String("redis.small"),
				SubnetIds: pulumi.StringArray{
					pulumi.String("sn-a"),
					pulumi.String("sn-b"),
				},
				SecurityGroupIds: pulumi.StringArray{
					pulumi.String("sg-default"),
				},
				Shards: cache.CacheWithParametersClusterShardArray{
					&cache.CacheWithParametersClusterShardArgs{
						PrimarySubnetId: pulumi.String("sn-a"),
						ReplicaSubnetIds: pulumi.StringArray{
							pulumi.String("sn-b"),
						},
					},
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("sessionsCacheEndpoint", sessionsCache.PrimaryEndpoint)
		ctx.Export("sessionsCacheSync", sessionsCache.SyncStatus)
		return nil
	})
}
