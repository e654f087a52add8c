#!/usr/bin/env bash
# Make the Pulumi CLI available without internet access (only package registries are reachable).
#
#   BIN=$(scripts/install-pulumi.sh | tail -n1)
#   export PATH="$PWD/node_modules/node/bin:$BIN:$PATH"   # Node 24 first, then pulumi
#
# - If a `pulumi` on PATH reports v3.x >= $MIN_VERSION and has pulumi-language-nodejs next to it or on
#   PATH, it is used as is.
# - Otherwise `pulumi` and `pulumi-language-nodejs` are built with Go from the module proxy, using the
#   wrapper module in scripts/pulumi-cli/, into ${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}/pulumi-<ver>/bin
#   (outside the work tree), and reused by later runs.
#
# Progress goes to stderr; stdout is exactly one line: the directory to put on PATH.
#
# Why v3.259.0 and not v3.260.0 (the version of the @pulumi/pulumi npm package): the module proxy
# answers 403 for the source zip of github.com/pulumi/pulumi/pkg/v3@v3.260.0 (and every later pkg
# version); v3.259.0 is the newest buildable one. CLI 3.259 runs programs using @pulumi/pulumi 3.260.
# Upstream's pulumi-language-nodejs module is refused by the proxy altogether, so
# scripts/pulumi-cli/pulumi-language-nodejs/ holds a minimal host that drives @pulumi/pulumi/cmd/run.
set -euo pipefail

PULUMI_VERSION=v3.259.0 # keep in sync with scripts/pulumi-cli/go.mod
MIN_VERSION=3.259.0     # a pulumi already on PATH must be at least this

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
MODULE_DIR=$SCRIPT_DIR/pulumi-cli
TOOLS_DIR=${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}
PREFIX=$TOOLS_DIR/pulumi-$PULUMI_VERSION
BIN_DIR=$PREFIX/bin
NODE_BIN_DIR=$REPO_ROOT/node_modules/node/bin
DYNAMIC_PROVIDER=pulumi-resource-pulumi-nodejs

log() { printf 'install-pulumi: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

# Prints the version reported by a pulumi binary ("v3.259.0"), or nothing.
pulumi_version_of() {
	PULUMI_SKIP_UPDATE_CHECK=true "$1" version 2>/dev/null | head -n1 | tr -d '[:space:]' || true
}

# shellcheck source=scripts/go-build.sh
. "$SCRIPT_DIR/go-build.sh"

# True when pulumi version $1 (e.g. "v3.260.0") is a v3.x not older than $2.
version_ok() {
	[[ ${1#v} =~ ^3\.[0-9]+\.[0-9]+ ]] && version_ge "${BASH_REMATCH[0]}" "$2"
}

print_result() {
	local dir=$1
	log "pulumi: $dir/pulumi ($(pulumi_version_of "$dir/pulumi"))"
	if [[ -x $NODE_BIN_DIR/node ]]; then
		log "run pulumi with: export PATH=\"$NODE_BIN_DIR:$dir:\$PATH\""
	else
		log "warning: $NODE_BIN_DIR/node is missing (run npm ci); pulumi needs Node >= 22 first on PATH"
		log "run pulumi with: export PATH=\"<node 24 bin dir>:$dir:\$PATH\""
	fi
	printf '%s\n' "$dir"
}

# 1. A recent enough pulumi already on PATH?
if existing=$(command -v pulumi 2>/dev/null); then
	existing_dir=$(cd "$(dirname "$existing")" && pwd)
	existing_version=$(pulumi_version_of "$existing")
	if version_ok "$existing_version" "$MIN_VERSION" &&
		{ [[ -x $existing_dir/pulumi-language-nodejs ]] || command -v pulumi-language-nodejs >/dev/null 2>&1; }; then
		log "using pulumi $existing_version already on PATH: $existing"
		print_result "$existing_dir"
		exit 0
	fi
	log "ignoring pulumi on PATH ($existing, version '${existing_version:-unknown}'): need v3 >= $MIN_VERSION" \
		"with pulumi-language-nodejs"
fi

lock_prefix

# The dynamic provider plugin. The engine looks for pulumi-resource-pulumi-nodejs on PATH, then next to
# the pulumi binary. This is the same logic as the script shipped in the @pulumi/pulumi npm package:
# it runs the dynamic provider of the @pulumi/pulumi that the program directory (its cwd) resolves.
install_dynamic_provider() {
	local target=$BIN_DIR/$DYNAMIC_PROVIDER tmp
	tmp=$(mktemp "$BIN_DIR/.$DYNAMIC_PROVIDER.XXXXXX")
	cat >"$tmp" <<'EOF'
#!/bin/sh
# Installed by pulumi-krcloud scripts/install-pulumi.sh; equivalent to @pulumi/pulumi/pulumi-resource-pulumi-nodejs.
script=$(node -e "process.stdout.write(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))") || exit 1
exec node "$script" "$@"
EOF
	chmod 755 "$tmp"
	if [[ -f $target ]] && cmp -s "$tmp" "$target"; then
		rm -f "$tmp"
	else
		mv -f "$tmp" "$target"
	fi
}

# Fingerprint of the wrapper module, so that editing it (e.g. the language host) triggers a rebuild.
source_hash=$(cd "$MODULE_DIR" && cat go.mod go.sum internal/langhost/*.go pulumi-language-nodejs/*.go | sha256sum | cut -d' ' -f1)
STAMP=$PREFIX/.source-sha256

# 2. Already built by an earlier run?
if [[ -x $BIN_DIR/pulumi && -x $BIN_DIR/pulumi-language-nodejs ]] &&
	[[ -f $STAMP && $(<"$STAMP") == "$source_hash" ]] &&
	[[ $(pulumi_version_of "$BIN_DIR/pulumi") == "$PULUMI_VERSION" ]]; then
	log "reusing $BIN_DIR (pulumi $PULUMI_VERSION)"
	install_dynamic_provider
	print_result "$BIN_DIR"
	exit 0
fi

# 3. Build from the Go module proxy.
prepare_go_build

ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$PULUMI_VERSION"
log "building pulumi $PULUMI_VERSION with $go_version (GOPROXY=$(go env GOPROXY), GOMODCACHE=$(go env GOMODCACHE))"
log "this takes several minutes on a cold cache"
start=$SECONDS
(
	cd "$MODULE_DIR"
	export GOTOOLCHAIN=local
	log "downloading modules (if not cached) and compiling pulumi"
	go build -buildvcs=false -trimpath -ldflags "$ldflags" -o "$build_dir/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
	log "compiling pulumi-language-nodejs"
	go build -buildvcs=false -trimpath -ldflags "$ldflags" -o "$build_dir/pulumi-language-nodejs" ./pulumi-language-nodejs
)
built_version=$(pulumi_version_of "$build_dir/pulumi")
[[ $built_version == "$PULUMI_VERSION" ]] || die "built pulumi reports '$built_version', expected $PULUMI_VERSION"

# Same filesystem, so mv is an atomic rename; pulumi goes last because the reuse check keys on it.
mv -f "$build_dir/pulumi-language-nodejs" "$BIN_DIR/pulumi-language-nodejs"
mv -f "$build_dir/pulumi" "$BIN_DIR/pulumi"
printf '%s\n' "$source_hash" >"$build_dir/stamp"
mv -f "$build_dir/stamp" "$STAMP"
install_dynamic_provider
log "built in $((SECONDS - start))s into $BIN_DIR"
print_result "$BIN_DIR"
