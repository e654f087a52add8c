import pulumi
import pulumi_krcloud as krcloud

site = krcloud.objectstorage.Bucket("site", force_destroy=True)
site_lifecycle = krcloud.objectstorage.BucketLifecycle("siteLifecycle",
    bucket=site.name,
    rules=[{
        "id": "expire-logs",
        "prefix": "logs/",
        "status": krcloud.objectstorage.BucketLifecycleRuleStatus.ENABLED,
        "expiration_days": 30,
    }])
