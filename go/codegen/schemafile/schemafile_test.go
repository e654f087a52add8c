package schemafile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

type spec struct {
	Name     string                     `json:"name"`
	Language map[string]json.RawMessage `json:"language"`
}

func read(t *testing.T, text string) spec {
	t.Helper()
	path := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var s spec
	if err := Read(path, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGoImportBase(t *testing.T) {
	s := read(t, `{"name": "krcloud", "language": {"python": {}}}`)
	if s.Name != "krcloud" || string(s.Language["python"]) != "{}" {
		t.Errorf("the schema's own fields changed: %+v", s)
	}
	if got := string(s.Language["go"]); got != `{"importBasePath":"github.com/krcloud/pulumi-krcloud/sdk/go/krcloud"}` {
		t.Errorf("language.go = %s", got)
	}
	if got := string(read(t, `{"name": "krcloud", "language": {"go": {"importBasePath": "example.com/x"}}}`).Language["go"]); got != `{"importBasePath":"example.com/x"}` {
		t.Errorf("a Go section of the schema's own was replaced: %s", got)
	}
}
