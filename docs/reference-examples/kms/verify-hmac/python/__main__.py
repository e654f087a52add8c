import pulumi
import pulumi_krcloud as krcloud

mac = krcloud.kms.create_hmac(key_id="my-mac-key",
    content="aGVsbG8gd29ybGQ=")
mac_check = krcloud.kms.verify_hmac(key_id="my-mac-key",
    input="aGVsbG8gd29ybGQ=",
    output=mac.hmac)
pulumi.export("macValid", mac_check.valid)
