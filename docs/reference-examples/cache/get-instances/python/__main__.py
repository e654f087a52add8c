import pulumi
import pulumi_krcloud as krcloud

queue = krcloud.cache.InstanceSet("queue",
    version="7.0.15",
    flavor_id="redis.small",
    parameter_group_id="default.redis7.0.standalone",
    subnet_ids=[
        "sn-a",
        "sn-b",
        "sn-c",
    ],
    security_group_ids=["sg-default"],
    primary_subnet_id="sn-a",
    replica_subnet_ids=[
        "sn-b",
        "sn-c",
    ],
    high_availability=True,
    backup_schedule={
        "hour": 3,
        "retention_days": 7,
    })
queue_instances_var = krcloud.cache.get_instances_output(instance_set_id=queue.id)
pulumi.export("queueInstances", queue_instances_var.instances)
