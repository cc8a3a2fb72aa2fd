#!/usr/bin/env bash
# Builds the test API server: Kubernetes' own CRD server (k8s.io/apiextensions-apiserver) and etcd, from Debian
# sid packages fetched with a PRIVATE apt state (nothing is installed system-wide), compiled offline in GOPATH mode.
# Output: $GW_KUBE_CACHE/bin/{apiextensions-apiserver,etcd} (default ~/.cache/gw-kube). Skips when already built.
# Takes 3-8 minutes on 2 cores the first time. See operator/test/kube/README.md.
set -euo pipefail

CACHE="${GW_KUBE_CACHE:-$HOME/.cache/gw-kube}"
SUITE="${GW_KUBE_SUITE:-sid}"
MIRROR="${GW_KUBE_MIRROR:-http://deb.debian.org/debian}"
BIN="$CACHE/bin"
STAMP="$BIN/.complete"

log() { printf '[gw-kube] %s\n' "$*" >&2; }

if [[ -f "$STAMP" && "${1:-}" != "--force" ]]; then
  log "cached: $BIN"
  exit 0
fi

mkdir -p "$CACHE"
# One build at a time: parallel test workers and CI may all ask for it.
exec 9>"$CACHE/.build.lock"
flock 9
if [[ -f "$STAMP" && "${1:-}" != "--force" ]]; then log "cached: $BIN"; exit 0; fi

APT_DIR="$CACHE/apt"
DEBS="$CACHE/debs"
ROOT="$CACHE/root"
mkdir -p "$DEBS"
# Private apt state: own sources.list, status, lists and cache; no system sources.list.d and no dpkg database.
# shellcheck source=../../../scripts/private-apt.sh
source "$(dirname "$0")/../../../scripts/private-apt.sh"
log "apt-get update ($SUITE, private state under $APT_DIR)"
private_apt_setup "$APT_DIR" "$SUITE" "$MIRROR"

# Dependency closure of the CRD server's Go sources, restricted to Go source packages (-dev) and the toolchain.
closure() {
  apt-cache "${APT_OPTS[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances "$@" | grep -v '^ ' | grep -v '^<' | sort -u
}
{
  closure golang-k8s-apiextensions-apiserver-dev | grep -E '^golang-.*-dev$'
  closure golang-go | grep -E '^golang-'
  echo golang-k8s-apiextensions-apiserver-dev
  echo etcd-server
} | sort -u >"$CACHE/packages.txt"
log "$(wc -l <"$CACHE/packages.txt") packages in the closure"

log "apt-get download"
(cd "$DEBS" && xargs -a "$CACHE/packages.txt" apt-get "${APT_OPTS[@]}" -qq download)

log "dpkg -x into $ROOT"
rm -rf "$ROOT"
mkdir -p "$ROOT"
for deb in "$DEBS"/*.deb; do dpkg -x "$deb" "$ROOT"; done

# Debian ships absolute symlinks (e.g. GOROOT/src -> /usr/share/go-N/src, gocode aliases); re-root them.
find "$ROOT" -type l -lname '/*' -print0 | while IFS= read -r -d '' link; do
  target="$(readlink "$link")"
  ln -sfn "$ROOT$target" "$link"
done

GOROOT="$(find "$ROOT/usr/lib" -maxdepth 1 -type d -name 'go-*' | sort -V | tail -n1)"
[[ -x "$GOROOT/bin/go" ]] || { log "no Go toolchain found under $ROOT/usr/lib"; exit 1; }
GOPATH="$CACHE/gopath"
rm -rf "$GOPATH"
mkdir -p "$GOPATH"
ln -s "$ROOT/usr/share/gocode/src" "$GOPATH/src"

export GOROOT GOPATH
export PATH="$GOROOT/bin:$PATH"
export GO111MODULE=off GOPROXY=off GOFLAGS= GOTOOLCHAIN=local CGO_ENABLED=0
export GOCACHE="$CACHE/gocache"
log "$(go version), building k8s.io/apiextensions-apiserver offline"
mkdir -p "$BIN"
go build -trimpath -o "$BIN/apiextensions-apiserver" k8s.io/apiextensions-apiserver

# Debian's etcd is a Go binary too; build it from the same sources when the packaged one cannot run here.
if "$ROOT/usr/bin/etcd" --version >/dev/null 2>&1; then
  cp "$ROOT/usr/bin/etcd" "$BIN/etcd"
else
  log "packaged etcd does not run on this system; building go.etcd.io/etcd/server/v3"
  go build -trimpath -o "$BIN/etcd" go.etcd.io/etcd/server/v3
fi
"$BIN/etcd" --version >/dev/null
touch "$STAMP"
log "built: $BIN"
