import pulumi
import pulumi_krcloud as krcloud

sessions_cache = krcloud.cache.CacheWithParameters("sessionsCache",
    base_parameter_group_id="default.redis7.0.cluster",
    parameters={
        "maxmemory-policy": "allkeys-lru",
        "timeout": "300",
    },
    cluster={
        "version": "7.0.15",
        "flavor_id": "redis.small",
        "subnet_ids": [
            "sn-a",
            "sn-b",
        ],
        "security_group_ids": ["sg-default"],
        "shards": [{
            "primary_subnet_id": "sn-a",
            "replica_subnet_ids": ["sn-b"],
        }],
    })
pulumi.export("sessionsCacheEndpoint", sessions_cache.primary_endpoint)
pulumi.export("sessionsCacheSync", sessions_cache.sync_status)
