# shellcheck shell=bash
# Sourced by install-pulumi.sh, install-pulumi-yaml.sh and install-pulumi-languages.sh: the steps each takes to build a tool from
# the Go module proxy into $PREFIX/bin. The sourcing script sets PREFIX and BIN_DIR and defines log
# and die first.

# True when dotted version $1 >= $2.
version_ge() { [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1) == "$2" ]]; }

# Makes $BIN_DIR and serialises concurrent runs (flock is part of util-linux; skip locking where it
# is missing).
lock_prefix() {
	mkdir -p "$BIN_DIR"
	if command -v flock >/dev/null 2>&1; then
		exec 9>"$PREFIX/.lock"
		flock 9
		rm -rf "$PREFIX"/.build.* # left over by a killed run (we hold the lock, so none is in progress)
	fi
}

# Checks that the local Go can build (sets go_version) and makes build_dir, removed on exit.
prepare_go_build() {
	command -v go >/dev/null 2>&1 || die "go is not installed (need Go >= 1.25.11)"
	go_version=$(go env GOVERSION)
	[[ $go_version =~ ^go([0-9]+\.[0-9]+(\.[0-9]+)?) ]] && version_ge "${BASH_REMATCH[1]}" 1.25.11 ||
		die "$go_version is too old: need Go >= 1.25.11 (GOTOOLCHAIN downloads are not possible here)"

	build_dir=$(mktemp -d "$PREFIX/.build.XXXXXX")
	trap 'rm -rf "$build_dir"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
