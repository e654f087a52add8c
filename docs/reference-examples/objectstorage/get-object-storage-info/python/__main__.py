import pulumi
import pulumi_krcloud as krcloud

storage_info_var = krcloud.objectstorage.get_object_storage_info()
pulumi.export("storageInfo", storage_info_var)
