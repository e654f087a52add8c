import pulumi
import pulumi_krcloud as krcloud

config = pulumi.Config()
db_password = config.require("dbPassword")
sealed_password = krcloud.kms.Ciphertext("sealedPassword",
    key_id="my-key",
    plaintext=db_password,
    aad="datasource=shop")
unsealed_var = krcloud.kms.decrypt_output(key_id="my-key",
    ciphertext=sealed_password.ciphertext,
    aad="datasource=shop")
pulumi.export("unsealed", unsealed_var.plaintext)
