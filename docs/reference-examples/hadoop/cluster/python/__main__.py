import pulumi
import pulumi_krcloud as krcloud

site = krcloud.objectstorage.Bucket("site", force_destroy=True)
nightly = krcloud.hadoop.Cluster("nightly",
    cluster_version="HDE-2.0.1",
    cluster_type=krcloud.hadoop.ClusterClusterType.HADOOP,
    keypair_name="my-keypair",
    master_flavor_name="m2a.xlarge",
    worker_flavor_name="m2a.xlarge",
    worker_cnt=3,
    vpc_id="vpc-main",
    subnet_id="sn-main",
    configurations=[{
        "classification": "hive-site",
        "properties": {
            "hive.exec.parallel": "true",
        },
    }],
    user_task={
        "type": krcloud.hadoop.ClusterUserTaskType.HIVE,
        "termination_policy": krcloud.hadoop.ClusterUserTaskTerminationPolicy.ON_SUCCESS,
        "hive_query": "select count(*) from orders",
        "log_bucket_name": site.name,
    })
pulumi.export("nightlyStatus", nightly.status)
pulumi.export("nightlyLog", nightly.log_url)
