import pulumi
import pulumi_krcloud as krcloud

config = pulumi.Config()
db_password = config.require("dbPassword")
sealed_password_resource = krcloud.kms.Ciphertext("sealedPassword",
    key_id="my-key",
    plaintext=db_password,
    aad="datasource=shop")
pulumi.export("sealedPassword", sealed_password_resource.ciphertext)
