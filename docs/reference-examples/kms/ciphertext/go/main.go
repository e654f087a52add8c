package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/kms"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		dbPassword := cfg.Require("dbPassword")
		sealedPasswordResource, err := kms.NewCiphertext(ctx, "sealedPassword", &kms.CiphertextArgs{
			KeyId:     pulumi.String("my-key"),
			Plaintext: pulumi.String(dbPassword),
			Aad:       pulumi.String("datasource=shop"),
		})
		if err != nil {
			return err
		}
		ctx.Export("sealedPassword", sealedPasswordResource.Ciphertext)
		return nil
	})
}
