#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests (docs/development.md): initdb into DIR as an
# unprivileged user (nobody, when run as root), listening on a Unix socket in DIR only
# (no TCP port), trust authentication, no fsync. The tests reach it through
# PERFGATE_TEST_POSTGRESQL=DIR and create a database of their own for each store.
#   test-postgres.sh start DIR [WATCH_PID]  WATCH_PID: stop the server when that process ends,
#                                           whatever ends it (a killed ctest, a Ctrl-C);
#                                           "parent" watches the process that ran this script
#   test-postgres.sh restart DIR            restarts it at once (-m immediate: a crash), for
#                                           tests that check what a client does then
#   test-postgres.sh stop DIR               stops the server and removes DIR
set -euo pipefail

action=${1:-}
dir=${2:-}
watch=${3:-}
if [ "$watch" = parent ]; then watch=$PPID; fi
if [ -z "$action" ] || [ -z "$dir" ]; then
  echo "usage: $0 start DIR [WATCH_PID] | restart DIR | stop DIR" >&2
  exit 64
fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "test-postgres: no PostgreSQL server under /usr/lib/postgresql; run scripts/install-deps.sh" >&2
  exit 69
fi

# initdb refuses to run as root: the server runs as nobody, which owns DIR.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env "$@"
  else
    "$@"
  fi
}

case "$action" in
start)
  # What an earlier run left (a machine that lost power) goes first: each run starts empty.
  if [ -e "$dir" ]; then bash "$0" stop "$dir"; fi
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then chown nobody:nogroup "$dir"; fi
  as_owner "$bindir/initdb" -D "$dir/data" -U perfgate -A trust -E UTF8 --locale=C.UTF-8 \
    --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
  cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
CONF
  as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null ||
    { cat "$dir/server.log" >&2; exit 1; }
  if [ -n "$watch" ]; then
    # Detached, so that it outlives this script and ends with the watched process.
    setsid bash -c '
      while [ -d "/proc/$1" ]; do sleep 1; done
      bash "$2" stop "$3"' watch "$watch" "$(readlink -f "$0")" "$dir" </dev/null >/dev/null 2>&1 &
  fi
  ;;
restart)
  as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m immediate -w -t 60 \
    restart >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  ;;
stop)
  if [ -e "$dir/data/postmaster.pid" ]; then
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 ||
      as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
*)
  echo "usage: $0 start DIR [WATCH_PID] | restart DIR | stop DIR" >&2
  exit 64
  ;;
esac
