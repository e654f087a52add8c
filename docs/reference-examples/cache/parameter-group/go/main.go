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
		ctx.Export("sessionsParamsSync", sessionsParams.SyncStatus)
		return nil
	})
}
