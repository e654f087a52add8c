import pulumi
import pulumi_krcloud as krcloud

data_key = krcloud.kms.DataKey("dataKey", key_id="my-key")
pulumi.export("dataKeyCiphertext", data_key.ciphertext)
