import pulumi
import pulumi_krcloud as krcloud

sessions_params = krcloud.cache.ParameterGroup("sessionsParams",
    base_parameter_group_id="default.redis7.0.cluster",
    description="sessions, least recently used keys evicted first",
    parameters={
        "maxmemory-policy": "allkeys-lru",
        "timeout": "300",
    })
sessions = krcloud.cache.Cluster("sessions",
    version="7.0.15",
    flavor_id="redis.small",
    parameter_group_id=sessions_params.id,
    subnet_ids=[
        "sn-a",
        "sn-b",
    ],
    security_group_ids=["sg-default"],
    shards=[
        {
            "primary_subnet_id": "sn-a",
            "replica_subnet_ids": ["sn-b"],
        },
        {
            "primary_subnet_id": "sn-b",
            "replica_subnet_ids": ["sn-a"],
        },
    ],
    backup_schedule={
        "cron": "* 3 * * *",
        "retention_days": 7,
    })
pulumi.export("sessionsEndpoint", sessions.primary_endpoint)
