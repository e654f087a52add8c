import pulumi
import pulumi_krcloud as krcloud

site_buckets = krcloud.objectstorage.get_buckets(prefix="site-")
pulumi.export("siteBucketNames", site_buckets.names)
