#!/usr/bin/env bash
# The demo behind `make demo` / `make demo-destroy`: deploys examples/static-site to the local cloud.
#
#   scripts/demo.sh up        stack `dev` (created if missing), config from the local cloud, pulumi up
#   scripts/demo.sh destroy   pulumi destroy of that stack
#
# Run after `make build pulumi local-cloud-start` (the Makefile targets do that). Everything stays in
# .state/: the file backend (.state/pulumi-backend), PULUMI_HOME (.state/pulumi-home) and the stack
# config file (.state/demo/Pulumi.dev.yaml, passed with --config-file so the example directory stays
# as a user would copy it). The stack's secrets passphrase is `krcloud-demo`.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="$ROOT/.state"
PROGRAM="$ROOT/examples/static-site"
STACK=dev
CONFIG_FILE="$STATE/demo/Pulumi.$STACK.yaml"
LOCAL_CLOUD_STATE="$STATE/local-cloud.json"

PULUMI_BIN="${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}/pulumi-v3.259.0/bin"
export PATH="$ROOT/node_modules/node/bin:$PULUMI_BIN:$ROOT/node_modules/.bin:$PATH"
export PULUMI_BACKEND_URL="file://$STATE/pulumi-backend"
export PULUMI_HOME="$STATE/pulumi-home"
export PULUMI_CONFIG_PASSPHRASE=krcloud-demo
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
# The provider must take its settings from the stack config, not from a developer's shell.
unset KRCLOUD_AUTH_TOKEN KRCLOUD_PROJECT_ID KRCLOUD_LOCAL_CLOUD_URL

die() { echo "demo: $*" >&2; exit 1; }

command -v pulumi >/dev/null || die "pulumi is not on PATH: run \`make pulumi\`"
[ -s "$LOCAL_CLOUD_STATE" ] || die "$LOCAL_CLOUD_STATE is missing: run \`make local-cloud-start\`"
mkdir -p "$STATE/pulumi-backend" "$PULUMI_HOME" "$(dirname "$CONFIG_FILE")"

# A field of the local cloud's state file (node is there; jq may not be).
field() { node -e 'const s = require(process.argv[1]); const v = s[process.argv[2]]; if (v == null) process.exit(1); process.stdout.write(String(v));' "$LOCAL_CLOUD_STATE" "$1"; }

p() { (cd "$PROGRAM" && pulumi --non-interactive "$@"); }

select_stack() {
  if ! p stack select "$STACK" >/dev/null 2>&1; then
    echo "==> creating stack $STACK (backend $PULUMI_BACKEND_URL)"
    p stack init "$STACK" >/dev/null
    # stack init writes the passphrase salt into $PROGRAM/Pulumi.$STACK.yaml; keep it with the rest
    # of the demo's config in .state/ instead.
    if [ -f "$PROGRAM/Pulumi.$STACK.yaml" ]; then
      if [ -s "$CONFIG_FILE" ]; then rm -f "$PROGRAM/Pulumi.$STACK.yaml"; else mv "$PROGRAM/Pulumi.$STACK.yaml" "$CONFIG_FILE"; fi
    fi
  fi
}

configure() {
  local url project token
  url=$(field url) || die "no url in $LOCAL_CLOUD_STATE"
  project=$(field projectId) || die "no projectId in $LOCAL_CLOUD_STATE"
  token=$(field token) || die "no token in $LOCAL_CLOUD_STATE"
  echo "==> configuring stack $STACK for the local cloud at $url (project $project)"
  p config set --stack "$STACK" --config-file "$CONFIG_FILE" krcloud:localCloudUrl "$url"
  p config set --stack "$STACK" --config-file "$CONFIG_FILE" krcloud:projectId "$project"
  # From standard input, so the token never appears in a process listing.
  printf '%s' "$token" | p config set --stack "$STACK" --config-file "$CONFIG_FILE" --secret krcloud:authToken
}

show_outputs() {
  local index_url
  echo
  echo "==> stack outputs"
  p stack output --stack "$STACK"
  index_url=$(p stack output --stack "$STACK" indexUrl)
  cat <<EOF

The site is public-read; look at it with:
  curl -i $index_url

Stack outputs again (from the repository root):
  export PATH="$ROOT/node_modules/node/bin:$PULUMI_BIN:\$PATH"
  export PULUMI_BACKEND_URL=$PULUMI_BACKEND_URL PULUMI_HOME=$PULUMI_HOME PULUMI_CONFIG_PASSPHRASE=krcloud-demo
  pulumi stack output -C examples/static-site --stack $STACK            # or: --json, --show-secrets
  node dist/bin/krcloud-drift.js --cwd examples/static-site --stack $STACK --config-file ${CONFIG_FILE#"$ROOT"/}   # drift check

Clean up:
  make demo-destroy      # delete the demo's resources
  make local-cloud-stop  # stop the local cloud
EOF
}

case "${1:-}" in
  up)
    select_stack
    configure
    echo "==> pulumi up ($PROGRAM, stack $STACK)"
    p up --stack "$STACK" --config-file "$CONFIG_FILE" --yes --skip-preview
    show_outputs
    ;;
  destroy)
    if ! p stack select "$STACK" >/dev/null 2>&1; then
      echo "demo: no stack $STACK in $PULUMI_BACKEND_URL: nothing to destroy"
      exit 0
    fi
    configure
    echo "==> pulumi destroy (stack $STACK)"
    p destroy --stack "$STACK" --config-file "$CONFIG_FILE" --yes --skip-preview
    ;;
  *)
    echo "usage: $0 up|destroy" >&2
    exit 2
    ;;
esac
