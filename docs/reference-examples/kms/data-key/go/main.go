package main

import (
	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/kms"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		dataKey, err := kms.NewDataKey(ctx, "dataKey", &kms.DataKeyArgs{
			KeyId: pulumi.String("my-key"),
		})
		if err != nil {
			return err
		}
		ctx.Export("dataKeyCiphertext", dataKey.Ciphertext)
		return nil
	})
}
