import pulumi
import pulumi_krcloud as krcloud

versions_var = krcloud.cache.get_versions()
pulumi.export("versions", versions_var.versions)
