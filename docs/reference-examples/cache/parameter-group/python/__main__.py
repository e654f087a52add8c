import pulumi
import pulumi_krcloud as krcloud

sessions_params = krcloud.cache.ParameterGroup("sessionsParams",
    base_parameter_group_id="default.redis7.0.cluster",
    description="sessions, least recently used keys evicted first",
    parameters={
        "maxmemory-policy": "allkeys-lru",
        "timeout": "300",
    })
pulumi.export("sessionsParamsSync", sessions_params.sync_status)
