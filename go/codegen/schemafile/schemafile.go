// Package schemafile reads krcloud's schema.json for the Go tools that generate from it (sdkgen:
// the SDKs, exgen: the reference examples). It imports no Pulumi module: the tools are built on
// different versions of github.com/pulumi/pulumi/pkg/v3, and each decodes into its own version's
// schema.PackageSpec.
package schemafile

import (
	"encoding/json"
	"fmt"
	"os"
)

// GoImportBase is the Go module path the generated Go SDK is written as, where schema.json names none.
const GoImportBase = "github.com/krcloud/pulumi-krcloud/sdk/go/krcloud"

// Read decodes the schema at path into spec (a *schema.PackageSpec), with
// language.go.importBasePath GoImportBase unless the schema gives a Go section of its own.
func Read(path string, spec any) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	language := map[string]json.RawMessage{}
	if section, ok := doc["language"]; ok {
		if err := json.Unmarshal(section, &language); err != nil {
			return fmt.Errorf("reading %s: language: %w", path, err)
		}
	}
	if _, ok := language["go"]; !ok {
		language["go"] = json.RawMessage(fmt.Sprintf(`{"importBasePath": %q}`, GoImportBase))
	}
	if doc["language"], err = json.Marshal(language); err != nil {
		return err
	}
	if raw, err = json.Marshal(doc); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, spec); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}
