"""A public static website in krcloud object storage: a bucket and its index page."""

import pulumi
import pulumi_krcloud as krcloud

config = pulumi.Config()

# Auto-named from the logical name (site-<random suffix>).
site = krcloud.objectstorage.Bucket(
    "site",
    acl=krcloud.objectstorage.BucketAclArgs(public="read-only"),
    metadata={"purpose": "python-static-site"},
    force_destroy=True,
)

index = krcloud.objectstorage.BucketObject(
    "index",
    bucket=site.name,
    key="index.html",
    content=config.get("message") or "<h1>Hello from Python and krcloud</h1>",
    content_type="text/html",
)

pulumi.export("bucketName", site.name)
pulumi.export("url", index.url)
