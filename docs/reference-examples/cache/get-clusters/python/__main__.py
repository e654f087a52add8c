import pulumi
import pulumi_krcloud as krcloud

clusters_var = krcloud.cache.get_clusters()
pulumi.export("clusters", clusters_var.clusters)
