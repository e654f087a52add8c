import pulumi
import pulumi_krcloud as krcloud

cluster_defaults = krcloud.cache.get_parameter_group(id_or_name="default.redis7.0.cluster")
pulumi.export("clusterDefaultParameters", cluster_defaults.parameters)
