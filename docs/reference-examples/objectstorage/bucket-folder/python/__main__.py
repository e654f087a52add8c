import pulumi
import pulumi_krcloud as krcloud

site = krcloud.objectstorage.Bucket("site", force_destroy=True)
content = krcloud.objectstorage.BucketFolder("content",
    bucket=site.name,
    path="./site",
    prefix="www/",
    exclude=["**/*.map"],
    content_types={
        ".webmanifest": "application/manifest+json",
    },
    cache_control="max-age=300")
pulumi.export("url", content.url)
pulumi.export("files", content.file_count)
