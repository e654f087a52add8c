import pulumi
import pulumi_krcloud as krcloud

site = krcloud.objectstorage.Bucket("site", force_destroy=True)
index = krcloud.objectstorage.BucketObject("index",
    bucket=site.name,
    key="index.html",
    content="<h1>Hello from krcloud</h1>",
    content_type="text/html")
assets_folder = krcloud.objectstorage.BucketObject("assetsFolder",
    bucket=site.name,
    key="assets",
    folder=True)
pulumi.export("indexUrl", index.url)
