#!/usr/bin/env bash
# The demo behind `make demo` / `make demo-destroy`: deploys the examples to the local cloud, in
# order: static-site, cache, data-pipeline (DEMO_EXAMPLES overrides the list).
#
#   scripts/demo.sh up        stack `dev` of each (created if missing), config from the local cloud,
#                             the example's local-cloud.setup.json applied, pulumi up
#   scripts/demo.sh destroy   pulumi destroy of those stacks
#
# Run after `make build pulumi local-cloud-start` (the Makefile targets do that). Everything stays in
# .state/: the file backend (.state/pulumi-backend), PULUMI_HOME (.state/pulumi-home) and each stack's
# config file (.state/demo/<example>/Pulumi.dev.yaml, passed with --config-file so the example
# directories stay as a user would copy them). The stacks' secrets passphrase is `krcloud-demo`.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="${KRCLOUD_STATE_DIR:-$ROOT/.state}"
EXAMPLES="${DEMO_EXAMPLES:-static-site cache data-pipeline}"
STACK=dev
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
mkdir -p "$STATE/pulumi-backend" "$PULUMI_HOME"

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
  local url project token id secret
  url=$(field url) || die "no url in $LOCAL_CLOUD_STATE"
  project=$(field projectId) || die "no projectId in $LOCAL_CLOUD_STATE"
  token=$(field token) || die "no token in $LOCAL_CLOUD_STATE"
  id=$(field credentialId) || die "no credentialId in $LOCAL_CLOUD_STATE"
  secret=$(field credentialSecret) || die "no credentialSecret in $LOCAL_CLOUD_STATE"
  echo "==> configuring stack $STACK of $NAME for the local cloud at $url (project $project)"
  p config set --stack "$STACK" --config-file "$CONFIG_FILE" krcloud:localCloudUrl "$url"
  p config set --stack "$STACK" --config-file "$CONFIG_FILE" krcloud:projectId "$project"
  p config set --stack "$STACK" --config-file "$CONFIG_FILE" krcloud:credentialId "$id"
  # From standard input, so secrets never appear in a process listing.
  printf '%s' "$token" | p config set --stack "$STACK" --config-file "$CONFIG_FILE" --secret krcloud:authToken
  printf '%s' "$secret" | p config set --stack "$STACK" --config-file "$CONFIG_FILE" --secret krcloud:credentialSecret
}

# What the example needs in the local cloud first (local-cloud.setup.json: a KMS key, a database).
setup_local_cloud() {
  local file="$PROGRAM/local-cloud.setup.json"
  [ -f "$file" ] || return 0
  echo "==> preparing the local cloud for $NAME ($(basename "$file"))"
  node -e '
    const setup = require(process.argv[1]);
    const state = require(process.argv[2]);
    (async () => {
      for (const r of setup.resources) {
        const res = await fetch(`${state.controlUrl}/resources/${r.service}/${r.kind}/${encodeURIComponent(r.id)}`, {
          method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ projectId: state.projectId, ...r.patch }) });
        if (!res.ok) throw new Error(`${r.service}/${r.kind}/${r.id}: ${res.status} ${await res.text()}`);
      }
    })().catch((e) => { console.error(e.message); process.exit(1); });' "$file" "$LOCAL_CLOUD_STATE"
}

show_outputs() {
  echo
  echo "==> stack outputs of $NAME"
  p stack output --stack "$STACK"
}

epilogue() {
  local index_url
  index_url=$(cd "$ROOT/examples/static-site" && pulumi --non-interactive stack output --stack "$STACK" indexUrl 2>/dev/null || true)
  cat <<EOF

The site is public-read; look at it with:
  curl -i $index_url

Stack outputs again (from the repository root):
  export PATH="$ROOT/node_modules/node/bin:$PULUMI_BIN:\$PATH"
  export PULUMI_BACKEND_URL=$PULUMI_BACKEND_URL PULUMI_HOME=$PULUMI_HOME PULUMI_CONFIG_PASSPHRASE=krcloud-demo
  pulumi stack output -C examples/<example> --stack $STACK            # or: --json, --show-secrets
  node dist/bin/krcloud-drift.js --cwd examples/<example> --stack $STACK --config-file .state/demo/<example>/Pulumi.$STACK.yaml   # drift check

Clean up:
  make demo-destroy      # delete the demo's resources
  make local-cloud-stop  # stop the local cloud
EOF
  redis_epilogue
}

# The cache example's cluster is a real Redis Cluster when redis-server is installed (make demo
# installs it): the last line printed is a redis-cli command that talks to it, checked first.
redis_epilogue() {
  case " $EXAMPLES " in *" cache "*) ;; *) return 0 ;; esac
  local endpoint host port
  endpoint=$(cd "$ROOT/examples/cache" && pulumi --non-interactive stack output --stack "$STACK" clusterEndpoint 2>/dev/null || true)
  host=${endpoint%:*}
  port=${endpoint##*:}
  if [ "$host" != "127.0.0.1" ] || ! command -v redis-cli >/dev/null; then
    echo
    echo "The cache cluster is simulated ($endpoint): install redis-server (make redis) and restart the local cloud for real nodes."
    return 0
  fi
  if [ "$(redis-cli -c -h "$host" -p "$port" ping 2>&1)" != "PONG" ]; then
    echo "demo: the cache cluster at $endpoint does not answer PING" >&2
    return 1
  fi
  redis-cli -c -h "$host" -p "$port" set demo:greeting "hello from krcloud" >/dev/null
  cat <<EOF

The cache cluster is a real Redis Cluster on 127.0.0.1 (-c follows its MOVED redirections):
  redis-cli -c -h $host -p $port get demo:greeting
EOF
}

for_each_example() {
  for NAME in $EXAMPLES; do
    PROGRAM="$ROOT/examples/$NAME"
    CONFIG_FILE="$STATE/demo/$NAME/Pulumi.$STACK.yaml"
    [ -f "$PROGRAM/Pulumi.yaml" ] || die "no example $NAME"
    mkdir -p "$(dirname "$CONFIG_FILE")"
    "$@"
  done
}

up_one() {
  select_stack
  configure
  setup_local_cloud
  echo "==> pulumi up ($PROGRAM, stack $STACK)"
  p up --stack "$STACK" --config-file "$CONFIG_FILE" --yes --skip-preview
  show_outputs
}

destroy_one() {
  if ! p stack select "$STACK" >/dev/null 2>&1; then
    echo "demo: no stack $STACK of $NAME in $PULUMI_BACKEND_URL: nothing to destroy"
    return 0
  fi
  configure
  echo "==> pulumi destroy ($NAME, stack $STACK)"
  p destroy --stack "$STACK" --config-file "$CONFIG_FILE" --yes --skip-preview
}

case "${1:-}" in
  up)
    for_each_example up_one
    epilogue
    ;;
  destroy)
    for_each_example destroy_one
    ;;
  *)
    echo "usage: $0 up|destroy" >&2
    exit 2
    ;;
esac
