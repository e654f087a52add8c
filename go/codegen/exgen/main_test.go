package main

import (
	"strings"
	"testing"
)

// The generator's Go for provider/cache/get-cluster.example.yaml and get-flavors.example.yaml (the
// lines that matter), and what fixGo makes of it.
const generated = `package main

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		flavorsVar, err := cache.GetFlavors(ctx, map[string]interface{}{}, nil)
		if err != nil {
			return err
		}
		ctx.Export("flavors", flavorsVar.ApplyT(func(flavorsVar cache.GetFlavorsResult) ([]cache.GetFlavorsFlavor, error) {
			return []cache.GetFlavorsFlavor(flavorsVar.Flavors), nil
		}).([]cache.GetFlavorsFlavorOutput))
		info := cache.LookupClusterOutput(ctx, cache.GetClusterOutputArgs{Id: sessions.ID()}, nil)
		ctx.Export("n", info.ApplyT(func(info cache.GetClusterResult) (*float64, error) {
			return &info.Acl.ShardCount, nil
		}).(pulumi.Float64PtrOutput))
		all := cache.GetClustersOutput(ctx, cache.GetClustersOutputArgs{}, nil)
		return nil
	})
}
`

func TestFixGo(t *testing.T) {
	got := string(fixGo([]byte(generated)))
	for _, want := range []string{
		"flavorsVar := cache.GetFlavorsOutput(ctx, nil)\n",
		`ctx.Export("flavors", flavorsVar.Flavors())`,
		"cache.LookupClusterOutput(ctx, cache.LookupClusterOutputArgs{Id: sessions.ID()}, nil)",
		`ctx.Export("n", info.Acl().ShardCount())`,
		// A function that is not renamed keeps its names.
		"cache.GetClustersOutput(ctx, cache.GetClustersOutputArgs{}, nil)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("fixGo wrote no %q in:\n%s", want, got)
		}
	}
	for _, gone := range []string{"err != nil", "ApplyT", "GetClusterResult", "map[string]interface{}"} {
		if strings.Contains(got, gone) {
			t.Errorf("fixGo left %q in:\n%s", gone, got)
		}
	}
}
