// sdkgen generates the Python, Go and TypeScript SDKs of pulumi-krcloud from schema.json with
// Pulumi's own code generators (pkg/v3/codegen). The CLI's `pulumi package gen-sdk` would need the
// language hosts, which cannot be built from the module proxy here; the generators are plain
// libraries and need nothing else.
//
//	sdkgen <schema.json> <out dir>   writes <out>/python/..., <out>/go/... and <out>/nodejs/...
//
// The TypeScript SDK is the source of `pulumi-krcloud/native` (committed as sdk/nodejs/, compiled with
// the package into dist/sdk/nodejs/), so only its .ts files are written: the package around it is
// pulumi-krcloud itself, not a package.json, tsconfig.json or README of its own.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"

	"pulumi-krcloud/tools/schemafile"
)

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
	var spec schema.PackageSpec
	if err := schemafile.Read(schemaPath, &spec); err != nil {
		return err
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

	tsPkg, err := bind()
	if err != nil {
		return fmt.Errorf("binding the schema: %w", err)
	}
	tsFiles, err := nodejs.GeneratePackage("krcloud-sdkgen", tsPkg, nil, nil, false, noPackages{})
	if err != nil {
		return fmt.Errorf("generating TypeScript: %w", err)
	}
	if tsFiles, err = nativeSources(tsFiles); err != nil {
		return err
	}
	if err := write(filepath.Join(out, "nodejs"), tsFiles); err != nil {
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

// nativeSources keeps the TypeScript sources of the generated package and points getVersion at
// pulumi-krcloud's own package.json: the generator reads "./package.json" beside utilities.js
// (its package compiles to bin/ with a copy there); here utilities.js is dist/sdk/nodejs/utilities.js,
// three levels under the package root. The version goes into every resource's options and is the
// plugin version the engine loads, so it must be the package's.
func nativeSources(files map[string][]byte) (map[string][]byte, error) {
	kept := map[string][]byte{}
	for name, body := range files {
		if strings.HasSuffix(name, ".ts") {
			kept[name] = body
		}
	}
	const from, to = "require('./package.json')", "require('../../../package.json')"
	util, ok := kept["utilities.ts"]
	if !ok || strings.Count(string(util), from) != 1 {
		return nil, fmt.Errorf("generated utilities.ts does not read %s once: the generator changed, review nativeSources", from)
	}
	kept["utilities.ts"] = []byte(strings.Replace(string(util), from, to, 1) + lightStacksExport)
	// Each resource's constructor installs light stacks first, as the dynamic classes do.
	classes := 0
	for name, body := range kept {
		wrapped := superCall.ReplaceAllString(string(body), lightStacksCall)
		if wrapped != string(body) {
			classes++
			kept[name] = []byte(wrapped)
		}
	}
	if classes == 0 {
		return nil, fmt.Errorf("no generated constructor calls super(X.__pulumiType, name, resourceInputs, opts): the generator changed, review nativeSources")
	}
	return kept, nil
}

// The SDK's per-promise stack traces cost half of a TypeScript program's CPU at scale: each resource's
// constructor makes them cheap first (provider/core/light-stacks.ts, which the package ships:
// utilities.js is dist/sdk/nodejs/utilities.js, so the helper is ../../provider/core/light-stacks).
const lightStacksExport = `
/** @internal Cheap stacks for the SDK's promise bookkeeping (pulumi-krcloud's provider/core/light-stacks.ts). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const lightStacks: () => void = require("../../provider/core/light-stacks").lightStacks;
`

var superCall = regexp.MustCompile(`(?m)^( *)(super\(\w+\.__pulumiType, name, resourceInputs, opts\);)$`)

const lightStacksCall = "${1}utilities.lightStacks();\n${1}${2}"

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
