// sdkgen generates the Python and Go SDKs of pulumi-krcloud from schema.json with Pulumi's own
// code generators (pkg/v3/codegen). The CLI's `pulumi package gen-sdk` would need the Python and Go
// language hosts, which cannot be built from the module proxy here; the generators are plain
// libraries and need nothing else.
//
//	sdkgen <schema.json> <out dir>   writes <out>/python/... and <out>/go/... (with a go.mod)
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
)

// The Go module the generated Go SDK is written as (schema.json may name another).
const goImportBase = "github.com/krcloud/pulumi-krcloud/sdk/go/krcloud"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: sdkgen <schema.json> <out dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("reading %s: %w", schemaPath, err)
	}
	if spec.Language == nil {
		spec.Language = map[string]schema.RawMessage{}
	}
	if _, ok := spec.Language["go"]; !ok {
		spec.Language["go"] = schema.RawMessage(fmt.Sprintf(`{"importBasePath": %q}`, goImportBase))
	}
	bind := func() (*schema.Package, error) {
		pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
		if err != nil {
			return nil, err
		}
		if diags.HasErrors() {
			return nil, diags
		}
		return pkg, nil
	}

	pyPkg, err := bind()
	if err != nil {
		return fmt.Errorf("binding the schema: %w", err)
	}
	pyFiles, err := python.GeneratePackage("krcloud-sdkgen", pyPkg, nil, noPackages{})
	if err != nil {
		return fmt.Errorf("generating Python: %w", err)
	}
	if err := write(filepath.Join(out, "python"), pyFiles); err != nil {
		return err
	}

	goPkg, err := bind()
	if err != nil {
		return fmt.Errorf("binding the schema: %w", err)
	}
	goFiles, err := gogen.GeneratePackage("krcloud-sdkgen", goPkg, nil)
	if err != nil {
		return fmt.Errorf("generating Go: %w", err)
	}
	for name, body := range goFiles {
		goFiles[name] = dropUnusedReflect(body)
	}
	return write(filepath.Join(out, "go"), goFiles)
}

// dropUnusedReflect removes the "reflect" import from a file that never uses it: the Go generator
// of pkg v3.259.0 imports it for a function without inputs whose result is a map
// (getObjectStorageInfo), which does not compile.
func dropUnusedReflect(src []byte) []byte {
	text := string(src)
	if !strings.Contains(text, "\t\"reflect\"\n") || strings.Contains(text, "reflect.") {
		return src
	}
	return []byte(strings.Replace(text, "\t\"reflect\"\n", "", 1))
}

func write(dir string, files map[string][]byte) error {
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noPackages loads no other package: krcloud's schema refers to none (only pulumi.json built-ins).
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("schema.json refers to package %q: sdkgen loads no other package", pkg)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noPackages) LoadPackageReference(pkg string, v *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(pkg, v)
	return nil, err
}

func (l noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}
