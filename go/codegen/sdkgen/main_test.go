package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// What the Go generator of pkg v3.259.0 writes for getObjectStorageInfo (the lines that matter):
// "reflect" imported and never used, which does not compile.
const unusedReflect = `package objectstorage

import (
	"context"
	"reflect"

	"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/internal"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	_ "embed"
)

func GetObjectStorageInfo(ctx *pulumi.Context, opts ...pulumi.InvokeOption) (map[string]string, error) {
	opts = internal.PkgInvokeDefaultOpts(opts)
	_ = context.Background()
	return nil, nil
}
`

func TestDropUnusedImports(t *testing.T) {
	got, err := dropUnusedImports("getObjectStorageInfo.go", []byte(unusedReflect))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), `"reflect"`) {
		t.Errorf("the unused import stayed:\n%s", got)
	}
	for _, kept := range []string{`"context"`, `"github.com/pulumi/pulumi/sdk/v3/go/pulumi"`, `"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud/internal"`, `_ "embed"`} {
		if !strings.Contains(string(got), kept) {
			t.Errorf("a used import went: %s in\n%s", kept, got)
		}
	}
	same, err := dropUnusedImports("x.go", got)
	if err != nil || string(same) != string(got) {
		t.Errorf("a file with no unused import changed: %v\n%s", err, same)
	}
}

func TestWithSchemaVersion(t *testing.T) {
	spec := schema.PackageSpec{Version: "0.1.0", Language: map[string]schema.RawMessage{"nodejs": schema.RawMessage(`{"packageName":"pulumi-krcloud"}`)}}
	if err := withSchemaVersion(&spec); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"python", "go", "nodejs"} {
		var section map[string]any
		if err := json.Unmarshal(spec.Language[lang], &section); err != nil {
			t.Fatal(err)
		}
		if section["respectSchemaVersion"] != true {
			t.Errorf("language.%s = %s", lang, spec.Language[lang])
		}
	}
	if !strings.Contains(string(spec.Language["nodejs"]), `"packageName":"pulumi-krcloud"`) {
		t.Errorf("the schema's own nodejs section was lost: %s", spec.Language["nodejs"])
	}
	if err := withSchemaVersion(&schema.PackageSpec{}); err == nil {
		t.Error("a schema without a version was accepted")
	}
}
