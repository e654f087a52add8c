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
nightly_vms_var = krcloud.hadoop.get_cluster_vms_output(cluster_id=nightly.id)
pulumi.export("nightlyVms", nightly_vms_var.vms)
