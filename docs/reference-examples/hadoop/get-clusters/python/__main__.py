import pulumi
import pulumi_krcloud as krcloud

hadoop_clusters_var = krcloud.hadoop.get_clusters(include_terminated=True)
pulumi.export("hadoopClusters", hadoop_clusters_var.clusters)
