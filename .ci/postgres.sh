# Sourced by `npm test` (scripts/run.mjs) when Debian's PostgreSQL binaries are there, and usable by
# hand: `source .ci/postgres.sh && start_test_postgres`.
# Starts a throwaway PostgreSQL cluster from Debian's package on a free loopback port, in a fresh
# temporary data directory, and exports ACP_KIT_PG_URL for the tests that need it. Idempotent: a
# reachable ACP_KIT_PG_URL is reused. The cluster is stopped and its directory removed on exit.

start_test_postgres() {
  if [[ -n "${ACP_KIT_PG_URL:-}" ]] && node -e '
      const net = require("node:net"); const u = new URL(process.argv[1]);
      const s = net.connect(Number(u.port || 5432), u.hostname, () => process.exit(0));
      s.on("error", () => process.exit(1)); s.setTimeout(2000, () => process.exit(1));' "$ACP_KIT_PG_URL"; then
    echo "postgres: reusing ${ACP_KIT_PG_URL}"
    return 0
  fi
  if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # The package's own cluster is not used (nor started here); ours is below.
    apt-get install -y -qq postgresql >/dev/null
  fi
  local bin
  bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
  ACP_KIT_PG_DIR="$(mktemp -d /tmp/acp-kit-pg.XXXXXX)"
  local port
  port="$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')"
  # The server refuses to run as root: as root, run it as the package's `postgres` user.
  local -a as_owner=()
  if [[ "$(id -u)" == "0" ]]; then
    chown postgres "$ACP_KIT_PG_DIR"
    as_owner=(runuser -u postgres --)
  fi
  "${as_owner[@]}" "$bin/initdb" -D "$ACP_KIT_PG_DIR/data" -U acp --auth=trust -E UTF8 --no-sync >"$ACP_KIT_PG_DIR/initdb.log" 2>&1 ||
    { cat "$ACP_KIT_PG_DIR/initdb.log"; return 1; }
  "${as_owner[@]}" "$bin/pg_ctl" -D "$ACP_KIT_PG_DIR/data" -l "$ACP_KIT_PG_DIR/server.log" -w -t 30 \
    -o "-k $ACP_KIT_PG_DIR -p $port -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null ||
    { cat "$ACP_KIT_PG_DIR/server.log"; return 1; }
  ACP_KIT_PG_BIN="$bin"
  ACP_KIT_PG_OWNER=("${as_owner[@]}")
  export ACP_KIT_PG_URL="postgres://acp@127.0.0.1:${port}/postgres"
  trap stop_test_postgres EXIT
  echo "postgres: started on ${ACP_KIT_PG_URL} (data in ${ACP_KIT_PG_DIR})"
}

stop_test_postgres() {
  if [[ -n "${ACP_KIT_PG_DIR:-}" && -d "$ACP_KIT_PG_DIR" ]]; then
    "${ACP_KIT_PG_OWNER[@]}" "$ACP_KIT_PG_BIN/pg_ctl" -D "$ACP_KIT_PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$ACP_KIT_PG_DIR"
    echo "postgres: stopped, ${ACP_KIT_PG_DIR} removed"
    ACP_KIT_PG_DIR=""
  fi
}
