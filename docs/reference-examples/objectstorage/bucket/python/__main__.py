import pulumi
import pulumi_krcloud as krcloud

assets = krcloud.objectstorage.Bucket("assets",
    acl={
        "public": krcloud.objectstorage.BucketAclPublic.READ_ONLY,
        "public_read_allow_ip_list": ["203.0.113.0/24"],
    },
    metadata={
        "owner": "web-team",
    },
    force_destroy=True)
pulumi.export("assetsName", assets.name)
pulumi.export("assetsUrl", assets.url)
