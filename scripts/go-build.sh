# shellcheck shell=bash
# Sourced by install-pulumi.sh, install-pulumi-yaml.sh, install-pulumi-languages.sh and
# install-pulumi-java.sh: the steps each takes to build tools from the Go module proxy into
# $PREFIX/bin. The sourcing script sets PREFIX and BIN_DIR first; the last three also set TOOLS (the
# files they install into $BIN_DIR) and source_hash (of what they build from) and use
# reuse_or_lock, prepare_go_build and install_built in that order.

log() { printf '%s: %s\n' "$(basename "$0" .sh)" "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

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

# True when every tool is in $BIN_DIR and was built from this source.
built() {
	local t
	for t in "${TOOLS[@]}"; do [[ -e $BIN_DIR/$t ]] || return 1; done
	[[ -f $PREFIX/.source-sha256 && $(<"$PREFIX/.source-sha256") == "$source_hash" ]]
}

# Prints $BIN_DIR and exits when the tools are built (before, or after waiting for a concurrent run
# that built them); otherwise returns holding the lock. $1 says which version, for the log.
reuse_or_lock() {
	if built; then
		log "reusing $BIN_DIR (${TOOLS[*]}, $1)"
		printf '%s\n' "$BIN_DIR"
		exit 0
	fi
	lock_prefix
	if built; then
		printf '%s\n' "$BIN_DIR"
		exit 0
	fi
}

# Moves the tools from $build_dir into $BIN_DIR, then the stamp (last: `built` keys on it), and
# prints $BIN_DIR. $start is when the build began ($SECONDS).
install_built() {
	local t
	for t in "${TOOLS[@]}"; do mv -f "$build_dir/$t" "$BIN_DIR/$t"; done
	printf '%s\n' "$source_hash" >"$build_dir/stamp"
	mv -f "$build_dir/stamp" "$PREFIX/.source-sha256"
	log "built in $((SECONDS - start))s into $BIN_DIR"
	printf '%s\n' "$BIN_DIR"
}
