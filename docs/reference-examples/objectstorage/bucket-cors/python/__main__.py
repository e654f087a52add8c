import pulumi
import pulumi_krcloud as krcloud

site = krcloud.objectstorage.Bucket("site", force_destroy=True)
site_cors = krcloud.objectstorage.BucketCors("siteCors",
    bucket=site.name,
    rules=[{
        "allowed_origins": ["https://www.example.com"],
        "allowed_methods": [krcloud.objectstorage.BucketCorsRuleAllowedMethod.GET],
        "allowed_headers": ["*"],
        "expose_headers": ["ETag"],
        "max_age_seconds": 3600,
    }])
