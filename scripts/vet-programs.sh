#!/usr/bin/env bash
# vet-programs.sh <module dir> - type-checks a Go module that holds one program per folder (the
# reference examples scripts/gen-examples.sh converts) with `go vet ./...`.
#
# stdout: one line per program that does not compile, `<folder><TAB><its first error>`.
# Exit 1 when the go command itself fails (a module it cannot download, a go.mod it cannot read),
# with its output on stderr. The go command's progress on a cold module cache ("go: downloading …",
# one line per module on stderr) is passed on to stderr as progress, never taken for a finding.
set -euo pipefail

dir=${1:?usage: scripts/vet-programs.sh <module dir>}
cd "$dir"
export GOFLAGS=-mod=mod
out=$(mktemp)
trap 'rm -f "$out"' EXIT

go vet ./... >"$out" 2>&1 || true
# vet's findings: "# <package>" headers, "vet: <folder>/main.go:<line>:<col>: <error>" and their
# indented continuation lines. The go command's progress: "go: downloading|extracting|finding …".
progress='^go: (downloading|extracting|finding) '
grep -E "$progress" "$out" >&2 || true
if grep -v -E -e "$progress" -e '^#' -e '^vet: ' -e '^\s' "$out" | grep -q .; then
  cat "$out" >&2
  echo "vet-programs: go vet failed in $dir (not a finding in one program: see above)" >&2
  exit 1
fi
for d in */; do
  name=${d%/}
  err=$(grep -m1 "^vet: $name/main.go:" "$out" || true)
  [[ -n $err ]] && printf '%s\t%s\n' "$name" "${err#"vet: $name/"}"
done
exit 0
