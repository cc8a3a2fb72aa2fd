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

APT_DIR="$CACHE/apt"
mkdir -p "$APT_DIR/etc/sources.list.d" "$APT_DIR/etc/preferences.d" "$APT_DIR/state/lists/partial" "$APT_DIR/cache/archives/partial" "$CACHE/debs"
touch "$APT_DIR/state/status"
printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' "$MIRROR" "$SUITE" >"$APT_DIR/etc/sources.list"
APT_OPTS=(
  -o "Dir::Etc::SourceList=$APT_DIR/etc/sources.list"
  -o "Dir::Etc::SourceParts=$APT_DIR/etc/sources.list.d"
  -o "Dir::Etc::Preferences=$APT_DIR/etc/preferences"
  -o "Dir::Etc::PreferencesParts=$APT_DIR/etc/preferences.d"
  -o "Dir::State=$APT_DIR/state"
  -o "Dir::State::status=$APT_DIR/state/status"
  -o "Dir::Cache=$APT_DIR/cache"
  -o "Debug::NoLocking=1"
  -o "APT::Architecture=amd64"
  -o "APT::Sandbox::User=root"
)
apt-get "${APT_OPTS[@]}" -qq update >&2
(cd "$CACHE/debs" && apt-get "${APT_OPTS[@]}" -qq download prometheus >&2)
rm -rf "$CACHE/root"
mkdir -p "$CACHE/root"
dpkg -x "$CACHE"/debs/prometheus_*.deb "$CACHE/root"
"$BIN" --version >&2
echo "$BIN"
