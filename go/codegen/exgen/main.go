// exgen converts the Pulumi YAML example programs of the reference pages
// (provider/<module>/<noun>.example.yaml) to TypeScript, Python and Go, with the converter of
// pulumi-yaml (YAML to PCL, as `pulumi convert --from yaml` does) and Pulumi's program generators
// (pkg/v3/codegen, the version the CLI is built from). `pulumi convert` itself would need the
// pulumi-converter-yaml plugin and language hosts that generate code; the libraries need neither.
//
//	exgen <schema.json> <out dir> <example.yaml>...
//
// writes <out>/<module>/<example name>/{typescript/index.ts, python/__main__.py, go/main.go} (the
// example provider/cache/get-clusters.example.yaml into <out>/cache/get-clusters/) and stops at the
// first example that does not convert, naming it. TypeScript imports `pulumi-krcloud/native`, the
// TypeScript SDK of the plugin (the generator names the package's root, the dynamic classes).
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/pulumi/pulumi-yaml/pkg/pulumiyaml"
	"github.com/pulumi/pulumi-yaml/pkg/pulumiyaml/ast"
	yamlgen "github.com/pulumi/pulumi-yaml/pkg/pulumiyaml/codegen"

	"pulumi-krcloud/go/codegen/schemafile"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: exgen <schema.json> <out dir> <example.yaml>...")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3:]); err != nil {
		fmt.Fprintln(os.Stderr, "exgen:", err)
		os.Exit(1)
	}
}

var languages = []struct {
	dir      string
	file     string
	generate func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error)
}{
	{"typescript", "index.ts", nodejs.GenerateProgram},
	{"python", "__main__.py", python.GenerateProgram},
	{"go", "main.go", gogen.GenerateProgram},
}

func run(schemaPath, out string, examples []string) error {
	var spec schema.PackageSpec
	if err := schemafile.Read(schemaPath, &spec); err != nil {
		return err
	}
	if spec.Version == "" {
		spec.Version = "0.1.0"
	}
	pkg, diags, err := schema.BindSpec(spec, nil, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	loader := onePackage{pkg}

	for _, file := range examples {
		source, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.Base(file), ".example.yaml")
		module := filepath.Base(filepath.Dir(file))
		for _, lang := range languages {
			template, tdiags, err := pulumiyaml.LoadYAMLBytes(file, source)
			if err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
			if tdiags.HasErrors() {
				return fmt.Errorf("%s: %s", file, tdiags.Error())
			}
			program, pdiags, err := toPCL(template, loader)
			if err != nil {
				return fmt.Errorf("%s to PCL: %w", file, err)
			}
			if pdiags.HasErrors() {
				return fmt.Errorf("%s to PCL: %s", file, pdiags.Error())
			}
			files, cdiags, err := lang.generate(program)
			if err != nil {
				return fmt.Errorf("%s to %s: %w", file, lang.dir, err)
			}
			if cdiags.HasErrors() {
				return fmt.Errorf("%s to %s: %s", file, lang.dir, cdiags.Error())
			}
			text, ok := files[lang.file]
			if !ok {
				return fmt.Errorf("%s to %s: the generator wrote no %s", file, lang.dir, lang.file)
			}
			switch lang.dir {
			case "typescript":
				text = nativeImport(text)
			case "go":
				text = fixGo(text)
			}
			dir := filepath.Join(out, module, name, lang.dir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, lang.file), text, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// toPCL is pulumi-yaml's EjectProgram (YAML to PCL, then bound) with one more bind option,
// PreferOutputVersionedInvokes: a function call becomes its output form (getClusterOutput), as in
// the programs Pulumi's own generator tests compile (pkg/v3/codegen/testing/test). The plain form
// EjectProgram binds gives the Go generator calls that do not compile: `map[string]interface{}{}` for
// the invoke options, plain results passed to ctx.Export, output args types the SDK does not have.
func toPCL(template *ast.TemplateDecl, loader schema.ReferenceLoader) (*pcl.Program, hcl.Diagnostics, error) {
	text, diags, err := yamlgen.ConvertTemplateIL(template, loader)
	if err != nil {
		return nil, diags, err
	}
	parser := hclsyntax.NewParser()
	if err := parser.ParseFile(strings.NewReader(text), "program.pp"); err != nil {
		return nil, diags, err
	}
	diags = diags.Extend(parser.Diagnostics)
	if diags.HasErrors() {
		return nil, diags, nil
	}
	program, bdiags, err := pcl.BindProgram(parser.Files,
		pcl.SkipResourceTypechecking, pcl.AllowMissingProperties, pcl.AllowMissingVariables,
		pcl.PreferOutputVersionedInvokes, pcl.Loader(loader))
	return program, diags.Extend(bdiags), err
}

// nativeImport makes a TypeScript program import `pulumi-krcloud/native`: the generator names the
// package's root for resources and `@pulumi/krcloud` for functions, and then imports both.
func nativeImport(text []byte) []byte {
	var lines []string
	seen := map[string]bool{}
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.Replace(line, `from "pulumi-krcloud";`, `from "pulumi-krcloud/native";`, 1)
		line = strings.Replace(line, `from "@pulumi/krcloud";`, `from "pulumi-krcloud/native";`, 1)
		if strings.HasPrefix(line, "import ") {
			if seen[line] {
				continue
			}
			seen[line] = true
		}
		lines = append(lines, line)
	}
	return []byte(strings.Join(lines, "\n"))
}

// onePackage loads krcloud's schema and no other package.
type onePackage struct{ pkg *schema.Package }

func (l onePackage) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	if name != l.pkg.Name {
		return nil, fmt.Errorf("the examples use package %q: exgen loads only %q", name, l.pkg.Name)
	}
	return l.pkg, nil
}

func (l onePackage) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l onePackage) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	p, err := l.LoadPackage(name, v)
	if err != nil {
		return nil, err
	}
	return p.Reference(), nil
}

func (l onePackage) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}
