import pulumi
import pulumi_krcloud as krcloud

www = krcloud.objectstorage.StaticSite("www",
    path="./site",
    exclude=["**/*.map"],
    cache_control="max-age=300")
pulumi.export("siteUrl", www.index_url)
pulumi.export("siteLayout", www.layout)
