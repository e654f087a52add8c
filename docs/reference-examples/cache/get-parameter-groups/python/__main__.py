import pulumi
import pulumi_krcloud as krcloud

default_groups_var = krcloud.cache.get_parameter_groups(parameter_group_type=krcloud.cache.GetParameterGroupsParameterGroupType.DEFAULT,
    cluster_mode=krcloud.cache.GetParameterGroupsClusterMode.ENABLED,
    engine_version="7.0.15")
pulumi.export("defaultGroups", default_groups_var.parameter_groups)
