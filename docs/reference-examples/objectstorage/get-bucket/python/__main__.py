import pulumi
import pulumi_krcloud as krcloud

shared_assets = krcloud.objectstorage.get_bucket(name="shared-assets")
pulumi.export("sharedAssetsObjects", shared_assets.object_count)
pulumi.export("sharedAssetsPublic", shared_assets.acl.public)
