#!/usr/bin/env bash
# Converts every reference page's YAML example (provider/<module>/<noun>.example.yaml) to TypeScript,
# Python and Go with go/codegen/exgen (pulumi-yaml's YAML-to-PCL converter and Pulumi's program
# generators, the code `pulumi convert --from yaml` runs), for tools/gen-reference.ts to show beside
# the YAML:
#
#   scripts/gen-examples.sh <out dir>   <out dir>/<module>/<noun>/{typescript/index.ts,python/__main__.py,go/main.go}
#
# The conversions live only in the pages (docs/reference/): `make schema` converts into a temporary
# folder and gen-reference.ts reads it; tests/engine/docs-examples.test.ts does the same and
# compares the pages, then compiles the code they show.
#
# Why a tool and not `pulumi convert`: that needs the pulumi-converter-yaml plugin and language hosts
# that generate code, which the hosts built here (go/langhost) do not. Why
# pulumi-yaml v1.25.0 on github.com/pulumi/pulumi/pkg/v3 v3.219.0 (go/codegen/exgen/go.mod): v1.25.0 is
# the newest pulumi-yaml the module proxy serves; it calls the plugin API of pkg/v3 v3.206 to v3.219
# (plugin.NewContextWithRoot changed its parameters in v3.224, schema.NewPluginLoader takes a plugin context
# in v3.248), so v3.219.0 is the newest pkg/v3 it builds with. exgen binds with
# PreferOutputVersionedInvokes and rewrites what the Go generator of that version still gets wrong
# (go/codegen/exgen/gofix.go); the tests compile every program.
# The tool is built once per source version into ~/.cache/krcloud (scripts/install-go-tool.sh exgen).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: scripts/gen-examples.sh <out dir>}"
BIN="$(bash "$ROOT/scripts/install-go-tool.sh" exgen | tail -n1)/exgen"

rm -rf "$OUT"
(cd "$ROOT" && "$BIN" schema.json "$OUT" provider/*/*.example.yaml)
echo "gen-examples: $(find "$OUT" -name main.go | wc -l) examples in TypeScript, Python and Go in $OUT" >&2

# Go: each program is type-checked (`go vet`) against the Go SDK generated from schema.json. One that
# fails (a generator bug go/codegen/exgen/gofix.go does not cover yet) is replaced by go/NOT-COMPILED.txt
# holding the first error, and its page says so instead of showing code that does not build (the
# docs-examples test then fails: every example must compile).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
KRCLOUD_SDK_WHEEL=0 bash "$ROOT/scripts/gen-sdks.sh" "$work/sdk" 2>/dev/null
mkdir "$work/vet"
sed -e 's|^module .*|module krcloud-reference-examples|' \
  -e "s|^replace github.com/krcloud/pulumi-krcloud/sdk/go => .*|replace github.com/krcloud/pulumi-krcloud/sdk/go => $work/sdk/go|" \
  "$ROOT/examples/go-static-site/go.mod" >"$work/vet/go.mod"
cp "$ROOT/examples/go-static-site/go.sum" "$work/vet/go.sum"
for f in "$OUT"/*/*/go/main.go; do
  rel=${f#"$OUT"/}                    # cache/get-cluster/go/main.go
  mod=${rel%%/*}
  noun=${rel#*/}
  noun=${noun%%/*}
  mkdir -p "$work/vet/$mod-$noun"
  cp "$f" "$work/vet/$mod-$noun/main.go"
done
# scripts/vet-programs.sh tells the programs that do not compile from the go command's own output
# (on a cold module cache, a "go: downloading" line per module), and stops when go itself failed.
bash "$ROOT/scripts/vet-programs.sh" "$work/vet" >"$work/not-compiled.tsv"
failed=0
while IFS=$'\t' read -r name err; do
  mod=${name%%-*}
  noun=${name#*-}
  rm "$OUT/$mod/$noun/go/main.go"
  printf '%s\n' "$err" >"$OUT/$mod/$noun/go/NOT-COMPILED.txt"
  failed=$((failed + 1))
done <"$work/not-compiled.tsv"
echo "gen-examples: $failed Go programs do not compile (go/NOT-COMPILED.txt), the others vet" >&2
