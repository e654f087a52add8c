import pulumi
import pulumi_krcloud as krcloud

signature = krcloud.kms.sign(key_id="my-signing-key",
    content="aGVsbG8gd29ybGQ=")
signature_check = krcloud.kms.verify_signature(key_id="my-signing-key",
    input="aGVsbG8gd29ybGQ=",
    output=signature.signature)
pulumi.export("signatureValid", signature_check.valid)
