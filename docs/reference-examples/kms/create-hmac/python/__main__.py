import pulumi
import pulumi_krcloud as krcloud

mac_var = krcloud.kms.create_hmac(key_id="my-mac-key",
    content="aGVsbG8gd29ybGQ=")
pulumi.export("mac", mac_var.hmac)
