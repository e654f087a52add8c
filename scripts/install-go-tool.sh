#!/usr/bin/env bash
# install-go-tool.sh - builds the Go-built tools of krcloud from the Go module proxy, once, into
# ${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud} (outside the work tree), and reuses them afterwards. The
# sources and the version each tool pins are in go/ (go/README.md says why each version).
#
#   scripts/install-go-tool.sh <tool>             build <tool> when missing; stdout is one line: its bin directory
#   scripts/install-go-tool.sh --where <tool>...  print each tool's bin directory, building nothing
#
#   tool              what it puts in its bin directory                 built from
#   pulumi            pulumi, pulumi-language-nodejs, the dynamic       go/langhost (pulumi/pkg v3.259.0)
#                     provider plugin pulumi-resource-pulumi-nodejs
#   pulumi-yaml       pulumi-language-yaml                              go/pins/pulumi-yaml
#   pulumi-languages  pulumi-language-python (+ its -exec script),      go/langhost
#                     pulumi-language-go
#   pulumi-java       pulumi-language-java, pulumi-java-gen             go/pins/pulumi-java
#   sdkgen            sdkgen (make sdks)                                go/codegen/sdkgen
#   exgen             exgen (make schema)                               go/codegen/exgen
#
# Each build goes into a directory of its own, named by the tool, its version and a digest of the
# sources it is built from (pulumi-v3.259.0-<digest>/bin): a changed source builds beside the old
# build, never over a binary another run may be executing. A build is complete when its directory
# holds `.complete`. Concurrent runs for the same build wait for each other on a lock, saying which
# process they wait for. `pulumi` is taken from PATH instead when one there is v3 >= $MIN_PULUMI and
# has pulumi-language-nodejs beside it or on PATH.
#
# Progress goes to stderr. Needs Go >= 1.25.11 (GOTOOLCHAIN downloads are not possible here).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS_DIR=${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}
MIN_GO=1.25.11
MIN_PULUMI=3.259.0 # a pulumi already on PATH must be at least this

PULUMI_VERSION=v3.259.0 # go/langhost/go.mod's github.com/pulumi/pulumi/pkg/v3
YAML_VERSION=v1.13.0    # go/pins/pulumi-yaml/go.mod's github.com/pulumi/pulumi-yaml
JAVA_VERSION=v1.17.0    # go/pins/pulumi-java/go.mod's github.com/pulumi/pulumi-java/pkg

log() { printf 'install-go-tool: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}
usage() { die "usage: $0 <tool> | --where <tool>... (tools: pulumi pulumi-yaml pulumi-languages pulumi-java sdkgen exgen)"; }

# The table above, per tool: module directory, version ("" for krcloud's own generators), the files
# it installs, and the modules fetched without the checksum database (it has no entry for them:
# their go.sum pins them instead; every other module is verified against it as usual).
define() {
	case $1 in
	pulumi) MODULE=go/langhost VERSION=$PULUMI_VERSION TOOLS=(pulumi pulumi-language-nodejs pulumi-resource-pulumi-nodejs) NOSUM= ;;
	pulumi-yaml) MODULE=go/pins/pulumi-yaml VERSION=$YAML_VERSION TOOLS=(pulumi-language-yaml) NOSUM=github.com/pulumi/pulumi-yaml ;;
	pulumi-languages) MODULE=go/langhost VERSION=$PULUMI_VERSION TOOLS=(pulumi-language-python pulumi-language-python-exec pulumi-language-go) NOSUM= ;;
	pulumi-java) MODULE=go/pins/pulumi-java VERSION=$JAVA_VERSION TOOLS=(pulumi-language-java pulumi-java-gen) NOSUM=github.com/pulumi/pulumi-java ;;
	sdkgen) MODULE=go/codegen/sdkgen VERSION= TOOLS=(sdkgen) NOSUM= ;;
	exgen) MODULE=go/codegen/exgen VERSION= TOOLS=(exgen) NOSUM=github.com/pulumi/pulumi-yaml ;;
	*) usage ;;
	esac
}

# The digest of what a tool is built from: its module's go.mod, go.sum and every other file but
# tests, the modules it replaces with a local directory (schemafile), and the tool's name and version.
digest() {
	local dirs=("$ROOT/$MODULE") rel
	while read -r rel; do dirs+=("$(cd "$ROOT/$MODULE/$rel" && pwd)"); done < <(sed -n 's/^replace [^ ]* => \(\.[^ ]*\)$/\1/p' "$ROOT/$MODULE/go.mod")
	{
		printf '%s %s\n' "$1" "$VERSION"
		find "${dirs[@]}" -type f ! -name '*_test.go' -print0 | LC_ALL=C sort -z | xargs -0 cat
	} | sha256sum | cut -c1-12
}

prefix_of() {
	define "$1"
	printf '%s/%s%s-%s\n' "$TOOLS_DIR" "$1" "${VERSION:+-$VERSION}" "$(digest "$1")"
}

if [[ ${1:-} == --where ]]; then
	shift
	(($# > 0)) || usage
	for t in "$@"; do printf '%s/bin\n' "$(prefix_of "$t")"; done
	exit 0
fi
(($# == 1)) || usage
TOOL=$1
PREFIX=$(prefix_of "$TOOL")
define "$TOOL" # prefix_of ran in a subshell
BIN_DIR=$PREFIX/bin

version_ge() { [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1) == "$2" ]]; }
pulumi_version_of() { PULUMI_SKIP_UPDATE_CHECK=true "$1" version 2>/dev/null | head -n1 | tr -d '[:space:]' || true; }
complete() { [[ -f $PREFIX/.complete ]]; }
done_with() {
	log "$1"
	printf '%s\n' "$2"
	exit 0
}

# 1. Built already? (pulumi: or a recent enough one on PATH)
complete && done_with "reusing $BIN_DIR ($TOOL${VERSION:+ $VERSION})" "$BIN_DIR"
if [[ $TOOL == pulumi ]] && existing=$(command -v pulumi 2>/dev/null); then
	existing_dir=$(cd "$(dirname "$existing")" && pwd)
	v=$(pulumi_version_of "$existing")
	if [[ ${v#v} =~ ^3\.[0-9]+\.[0-9]+ ]] && version_ge "${BASH_REMATCH[0]}" "$MIN_PULUMI" &&
		{ [[ -x $existing_dir/pulumi-language-nodejs ]] || command -v pulumi-language-nodejs >/dev/null 2>&1; }; then
		done_with "using pulumi $v already on PATH: $existing" "$existing_dir"
	fi
fi

# 2. One build at a time per directory: a second run waits, saying for what, and then reuses it.
mkdir -p "$PREFIX"
if command -v flock >/dev/null 2>&1; then
	exec 9>>"$PREFIX/.lock"
	if ! flock -n 9; then
		holder=$(cat "$PREFIX/.owner" 2>/dev/null || true)
		what=$( [[ -n $holder ]] && ps -o args= -p "$holder" 2>/dev/null | cut -c1-120 || true)
		log "waiting for another build of $TOOL into $PREFIX to finish (pid ${holder:-unknown}${what:+: $what}; lock $PREFIX/.lock)"
		waited=0
		until flock -w 30 9; do
			waited=$((waited + 30))
			log "still waiting for the other build of $TOOL (${waited}s; pid ${holder:-unknown})"
		done
	fi
	printf '%s\n' "$$" >"$PREFIX/.owner"
	complete && done_with "reusing $BIN_DIR ($TOOL, built by the run we waited for)" "$BIN_DIR"
	rm -rf "$PREFIX"/.build.* # left over by a killed run (we hold the lock, so none is in progress)
fi

# 3. Build from the Go module proxy into a temporary directory beside bin/, then move the files in.
command -v go >/dev/null 2>&1 || { [[ -x /usr/local/go/bin/go ]] && export PATH="/usr/local/go/bin:$PATH"; } || true
command -v go >/dev/null 2>&1 || die "go is not installed (need Go >= $MIN_GO)"
go_version=$(go env GOVERSION)
[[ $go_version =~ ^go([0-9]+\.[0-9]+(\.[0-9]+)?) ]] && version_ge "${BASH_REMATCH[1]}" "$MIN_GO" ||
	die "$go_version is too old: need Go >= $MIN_GO (GOTOOLCHAIN downloads are not possible here)"
build_dir=$(mktemp -d "$PREFIX/.build.XXXXXX")
trap 'rm -rf "$build_dir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

gobuild() { # <output name> <package> [ldflags]
	log "compiling $1"
	go build -buildvcs=false -trimpath -ldflags "-s -w ${3:-}" -o "$build_dir/$1" "$2"
}

log "building $TOOL${VERSION:+ $VERSION} with $go_version (GOPROXY=$(go env GOPROXY)) into $BIN_DIR; minutes on a cold module cache"
start=$SECONDS
(
	cd "$ROOT/$MODULE"
	export GOTOOLCHAIN=local GOFLAGS=-mod=readonly ${NOSUM:+GONOSUMDB=$NOSUM}
	version_flag="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$PULUMI_VERSION"
	case $TOOL in
	pulumi)
		gobuild pulumi github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$version_flag"
		gobuild pulumi-language-nodejs ./cmd/pulumi-language-nodejs "$version_flag"
		install -m 755 pulumi-resource-pulumi-nodejs "$build_dir/"
		;;
	pulumi-yaml) gobuild pulumi-language-yaml github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml ;;
	pulumi-languages)
		gobuild pulumi-language-python ./cmd/pulumi-language-python "$version_flag"
		gobuild pulumi-language-go ./cmd/pulumi-language-go "$version_flag"
		# Upstream's executor script, from the Pulumi Go SDK of the CLI's version (the file upstream ships).
		install -m 644 "$(go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)/python/cmd/pulumi-language-python-exec" "$build_dir/"
		;;
	pulumi-java)
		for t in pulumi-language-java pulumi-java-gen; do
			gobuild "$t" "github.com/pulumi/pulumi-java/pkg/cmd/$t" "-X github.com/pulumi/pulumi-java/pkg/version.Version=$JAVA_VERSION"
		done
		;;
	sdkgen | exgen) gobuild "$TOOL" . ;;
	esac
)
if [[ $TOOL == pulumi ]]; then
	built=$(pulumi_version_of "$build_dir/pulumi")
	[[ $built == "$PULUMI_VERSION" ]] || die "the pulumi built reports '$built', expected $PULUMI_VERSION"
fi
mkdir -p "$BIN_DIR"
for t in "${TOOLS[@]}"; do mv -f "$build_dir/$t" "$BIN_DIR/$t"; done
: >"$PREFIX/.complete"
log "built $TOOL in $((SECONDS - start))s into $BIN_DIR"
printf '%s\n' "$BIN_DIR"
