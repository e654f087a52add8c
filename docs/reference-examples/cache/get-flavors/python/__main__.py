import pulumi
import pulumi_krcloud as krcloud

flavors_var = krcloud.cache.get_flavors()
pulumi.export("flavors", flavors_var.flavors)
