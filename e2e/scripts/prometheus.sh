#!/usr/bin/env bash
# Fetches Debian's `prometheus` package with a PRIVATE apt state (nothing installed system-wide) and extracts the
# server binary into a cache, for the e2e test that has a real Prometheus scrape the gateway. Prints the binary path.
set -euo pipefail

CACHE="${GW_PROMETHEUS_CACHE:-$HOME/.cache/gw-prometheus}"
SUITE="${GW_PROMETHEUS_SUITE:-bookworm}"
MIRROR="${GW_PROMETHEUS_MIRROR:-http://deb.debian.org/debian}"
BIN="$CACHE/root/usr/bin/prometheus"

if [[ -x "$BIN" ]]; then echo "$BIN"; exit 0; fi
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
if [[ -x "$BIN" ]]; then echo "$BIN"; exit 0; fi

# shellcheck source=../../scripts/private-apt.sh
source "$(dirname "$0")/../../scripts/private-apt.sh"
mkdir -p "$CACHE/debs"
private_apt_setup "$CACHE/apt" "$SUITE" "$MIRROR"
(cd "$CACHE/debs" && apt-get "${APT_OPTS[@]}" -qq download prometheus >&2)
rm -rf "$CACHE/root"
mkdir -p "$CACHE/root"
dpkg -x "$CACHE"/debs/prometheus_*.deb "$CACHE/root"
"$BIN" --version >&2
echo "$BIN"
