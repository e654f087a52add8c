import pulumi
import pulumi_krcloud as krcloud

data_sources_var = krcloud.dataquery.get_data_sources()
pulumi.export("dataSources", data_sources_var.data_sources)
