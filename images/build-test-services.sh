#!/usr/bin/env bash
# Builds the Postgres and Redis images the test suite starts (testkit's test services) from Debian's `postgresql` and
# `redis-server` packages, for machines that cannot pull the official `postgres:16` and `redis:7` (CI here reaches
# only the npm registry and Debian's mirrors). They behave as the official images do where the suite relies on it:
# `postgres` and `redis-server` on the PATH as the default command, trust authentication for `postgres`, the server
# port from PGPORT or `--port`. Needs root, mmdebstrap and podman. Prints the two tags:
#
#   localhost/gw-test-postgres:<suite>   PostgreSQL of the suite, a cluster made at build time (fsync off: test data)
#   localhost/gw-test-redis:<suite>      Redis of the suite, no persistence
#
# Point the suite at them with GW_TEST_POSTGRES_IMAGE and GW_TEST_REDIS_IMAGE (README "Tests").
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=images/debian-image.sh
source images/debian-image.sh

postgres_tag="localhost/gw-test-postgres:${suite}"
redis_tag="localhost/gw-test-redis:${suite}"
key="$(image_key postgresql redis-server)"
if load_cached_images test-services "$key" "$postgres_tag" "$redis_tag"; then
  printf '%s\n%s\n' "$postgres_tag" "$redis_tag"; exit 0
fi

require_mmdebstrap
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The package's own cluster is replaced by one at PGDATA that accepts the postgres user from anywhere without a
# password, as the official image does with POSTGRES_HOST_AUTH_METHOD=trust. Test data needs no durability.
cat >"$work/postgresql.conf" <<'CONF'
listen_addresses = '*'
unix_socket_directories = '/tmp'
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
mmdebstrap "${slim_debian_options[@]}" --include=postgresql \
  --customize-hook='rm -rf "$1"/var/lib/postgresql/* "$1"/etc/postgresql/*' \
  --customize-hook='ln -s "$(basename "$(ls -d "$1"/usr/lib/postgresql/[0-9]*)")" "$1"/usr/lib/postgresql/current' \
  --customize-hook='chroot "$1" install -d -o postgres -g postgres /var/lib/postgresql/data' \
  --customize-hook='chroot "$1" runuser -u postgres -- /usr/lib/postgresql/current/bin/initdb --pgdata=/var/lib/postgresql/data --auth=trust --username=postgres --encoding=UTF8 --no-locale --no-sync >/dev/null' \
  --customize-hook='echo "host all all all trust" >>"$1"/var/lib/postgresql/data/pg_hba.conf' \
  --customize-hook="cat '$work/postgresql.conf' >>\"\$1\"/var/lib/postgresql/data/postgresql.conf" \
  "$suite" "$work/postgres.tar" "$mirror" 2>"$work/mmdebstrap.log" || { cat "$work/mmdebstrap.log" >&2; exit 1; }
podman import --quiet \
  --change 'ENV PATH=/usr/lib/postgresql/current/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change "LABEL dev.gw.base-key=$key" \
  --change 'USER postgres' \
  --change 'EXPOSE 5432' \
  --change 'STOPSIGNAL SIGINT' \
  --change 'CMD ["postgres"]' \
  "$work/postgres.tar" "$postgres_tag" >/dev/null

mmdebstrap "${slim_debian_options[@]}" --include=redis-server \
  "$suite" "$work/redis.tar" "$mirror" 2>"$work/mmdebstrap.log" || { cat "$work/mmdebstrap.log" >&2; exit 1; }
podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "LABEL dev.gw.base-key=$key" \
  --change 'USER redis' \
  --change 'EXPOSE 6379' \
  --change 'CMD ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--save", "", "--appendonly", "no"]' \
  "$work/redis.tar" "$redis_tag" >/dev/null

save_cached_images test-services "$key" "$postgres_tag" "$redis_tag"
printf '%s\n%s\n' "$postgres_tag" "$redis_tag"
