import pulumi
import pulumi_krcloud as krcloud

signature_var = krcloud.kms.sign(key_id="my-signing-key",
    content="aGVsbG8gd29ybGQ=")
pulumi.export("signature", signature_var.signature)
