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

PULUMI_BIN=$(bash "$ROOT/scripts/install-go-tool.sh" --where pulumi)
export PATH="$ROOT/node_modules/node/bin:$PULUMI_BIN:$ROOT/node_modules/.bin:$PATH"
export PULUMI_BACKEND_URL="file://$STATE/pulumi-backend"
export PULUMI_HOME="$STATE/pulumi-home"
export PULUMI_CONFIG_PASSPHRASE=krcloud-demo
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
# The examples are type-checked by the engine tests; the demo only runs them (about 1 s less per
# example and run than ts-node's type check).
export PULUMI_NODEJS_TRANSPILE_ONLY=true
# The provider must take its settings from the stack config, not from a developer's shell.
unset KRCLOUD_AUTH_TOKEN KRCLOUD_PROJECT_ID KRCLOUD_LOCAL_CLOUD_URL

die() { echo "demo: $*" >&2; exit 1; }

command -v pulumi >/dev/null || die "pulumi is not on PATH: run \`make pulumi\`"
[ -s "$LOCAL_CLOUD_STATE" ] || die "$LOCAL_CLOUD_STATE is missing: run \`make local-cloud-start\`"
mkdir -p "$STATE/pulumi-backend" "$PULUMI_HOME"

# The local cloud's URL and credentials, read once (node is there; jq may not be).
read_local_cloud() {
  local values
  values=$(node -e '
    const s = require(process.argv[1]);
    for (const k of ["url", "projectId", "token", "credentialId", "credentialSecret"]) {
      if (typeof s[k] !== "string" || s[k] === "") { console.error(`no ${k} in ${process.argv[1]}`); process.exit(1); }
      console.log(s[k]);
    }' "$LOCAL_CLOUD_STATE") || die "$LOCAL_CLOUD_STATE is incomplete: run \`make local-cloud-stop local-cloud-start\`"
  { read -r LC_URL; read -r LC_PROJECT; read -r LC_TOKEN; read -r LC_ID; read -r LC_SECRET; } <<<"$values"
  LC_FINGERPRINT=$(printf '%s\n' "$values" | sha256sum | cut -d' ' -f1)
}

p() { (cd "$PROGRAM" && pulumi --non-interactive "$@"); }

select_stack() {
  if ! p stack select "$STACK" >/dev/null 2>&1; then
    echo "==> creating stack $STACK (backend $PULUMI_BACKEND_URL)"
    p stack init "$STACK" >/dev/null
    rm -f "$CONFIG_FILE.local-cloud"
    # stack init writes the passphrase salt into $PROGRAM/Pulumi.$STACK.yaml; keep it with the rest
    # of the demo's config in .state/ instead.
    if [ -f "$PROGRAM/Pulumi.$STACK.yaml" ]; then
      if [ -s "$CONFIG_FILE" ]; then rm -f "$PROGRAM/Pulumi.$STACK.yaml"; else mv "$PROGRAM/Pulumi.$STACK.yaml" "$CONFIG_FILE"; fi
    fi
  fi
}

# Sets the stack's krcloud config for the local cloud; skipped when the config file was written for
# this very local cloud and credentials (a stamp holds their fingerprint), so a repeated demo makes
# no `pulumi config set` call.
configure() {
  local stamp="$CONFIG_FILE.local-cloud"
  if [ -s "$CONFIG_FILE" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$LC_FINGERPRINT" ]; then return 0; fi
  echo "==> configuring stack $STACK of $NAME for the local cloud at $LC_URL (project $LC_PROJECT)"
  p config set --stack "$STACK" --config-file "$CONFIG_FILE" krcloud:localCloudUrl "$LC_URL"
  p config set --stack "$STACK" --config-file "$CONFIG_FILE" krcloud:projectId "$LC_PROJECT"
  p config set --stack "$STACK" --config-file "$CONFIG_FILE" krcloud:credentialId "$LC_ID"
  # From standard input, so secrets never appear in a process listing.
  printf '%s' "$LC_TOKEN" | p config set --stack "$STACK" --config-file "$CONFIG_FILE" --secret krcloud:authToken
  printf '%s' "$LC_SECRET" | p config set --stack "$STACK" --config-file "$CONFIG_FILE" --secret krcloud:credentialSecret
  printf '%s\n' "$LC_FINGERPRINT" >"$stamp"
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

The console shows what the stacks made, the requests the provider sent, and faults to try:
  $LC_URL/_console/#project=$LC_PROJECT

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

prepare_one() {
  select_stack
  configure
  setup_local_cloud
}

# The examples are independent stacks: their `pulumi up`s run at once (about half the time of one
# after the other on 2 cores), each into its own log, printed in the examples' order as each ends.
UP_PIDS=()
start_up() {
  local log="$STATE/demo/$NAME/up.log"
  p up --stack "$STACK" --config-file "$CONFIG_FILE" --yes --skip-preview >"$log" 2>&1 &
  UP_PIDS+=("$!")
}

up_all() {
  for_each_example prepare_one
  for_each_example start_up
  local i=0 failed=""
  for NAME in $EXAMPLES; do
    PROGRAM="$ROOT/examples/$NAME"
    echo "==> pulumi up ($PROGRAM, stack $STACK)"
    if wait "${UP_PIDS[$i]}"; then
      cat "$STATE/demo/$NAME/up.log"
      show_outputs
    else
      cat "$STATE/demo/$NAME/up.log"
      failed="$failed $NAME"
    fi
    i=$((i + 1))
  done
  [ -z "$failed" ] || die "pulumi up failed for:$failed (output above)"
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
    read_local_cloud
    up_all
    epilogue
    ;;
  destroy)
    read_local_cloud
    for_each_example destroy_one
    ;;
  *)
    echo "usage: $0 up|destroy" >&2
    exit 2
    ;;
esac
