// sdkgen generates the Python, Go and TypeScript SDKs of pulumi-krcloud from schema.json with
// Pulumi's own code generators (pkg/v3/codegen). The CLI's `pulumi package gen-sdk` would need the
// language hosts, which cannot be built from the module proxy here; the generators are plain
// libraries and need nothing else.
//
//	sdkgen <schema.json> <out dir>   writes <out>/python/..., <out>/go/... and <out>/nodejs/...
//
// The TypeScript SDK is the source of `pulumi-krcloud/native` (committed as sdk/nodejs/, compiled with
// the package into dist/sdk/nodejs/), so only its .ts files are written, as the generator writes them:
// the package around it is pulumi-krcloud itself, not a package.json, tsconfig.json or README of its own.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"

	"pulumi-krcloud/go/codegen/schemafile"
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
	if err := withSchemaVersion(&spec); err != nil {
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
	if err := write(filepath.Join(out, "nodejs"), tsSources(tsFiles)); err != nil {
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
		if strings.HasSuffix(name, ".go") {
			if goFiles[name], err = dropUnusedImports(name, body); err != nil {
				return err
			}
		}
	}
	return write(filepath.Join(out, "go"), goFiles)
}

// withSchemaVersion makes each generator take the package's version from the schema (`version`,
// which gen-schema sets to the npm package's): it is the plugin version each SDK asks the engine for
// (Python's setup.py and Go's default resource options; the generators would otherwise say 0.0.0 and
// leave Go's empty, so the engine would look for v1.0.0 from the module path).
func withSchemaVersion(spec *schema.PackageSpec) error {
	if spec.Version == "" {
		return fmt.Errorf("the schema has no version: sdkgen writes SDKs of the schema's version")
	}
	if spec.Language == nil {
		spec.Language = map[string]schema.RawMessage{}
	}
	for _, lang := range []string{"python", "go", "nodejs"} {
		section := map[string]any{}
		if raw, ok := spec.Language[lang]; ok {
			if err := json.Unmarshal(raw, &section); err != nil {
				return fmt.Errorf("language.%s: %w", lang, err)
			}
		}
		section["respectSchemaVersion"] = true
		raw, err := json.Marshal(section)
		if err != nil {
			return err
		}
		spec.Language[lang] = raw
	}
	return nil
}

// tsSources keeps the TypeScript sources of the generated package, unchanged: the package around
// them is pulumi-krcloud itself (its package.json, its tsconfig.native.json), and its entry
// pulumi-krcloud/native is the hand-written native.ts. utilities.ts reads the version from
// "./package.json" beside it, which make build writes into dist/sdk/nodejs/ (the generator's own
// package copies its package.json beside the compiled code the same way).
func tsSources(files map[string][]byte) map[string][]byte {
	kept := map[string][]byte{}
	for name, body := range files {
		if strings.HasSuffix(name, ".ts") {
			kept[name] = body
		}
	}
	return kept
}

// dropUnusedImports removes the imports a generated Go file never uses: the Go generator of
// pkg v3.259.0 imports "reflect" for a function without inputs whose result is a map
// (getObjectStorageInfo), which does not compile. It reads the file's syntax: an import is used
// when a selector names it (pkg.Name), which is how generated code refers to every import.
func dropUnusedImports(name string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("the Go generator wrote %s, which does not parse: %w", name, err)
	}
	used := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	dropped := false
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.IMPORT {
			continue
		}
		specs := gen.Specs[:0]
		for _, s := range gen.Specs {
			if spec := s.(*ast.ImportSpec); !used[importName(spec)] && importName(spec) != "_" {
				dropped = true
				continue
			}
			specs = append(specs, s)
		}
		gen.Specs = specs
	}
	if !dropped {
		return src, nil
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, file); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// importName is the name a file refers to an import by: its alias, or the last element of its path
// (a major version suffix such as /v3 is not the package's name).
func importName(spec *ast.ImportSpec) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	p, _ := strconv.Unquote(spec.Path.Value)
	parts := strings.Split(p, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2]
	}
	return strings.ReplaceAll(last, "-", "")
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
