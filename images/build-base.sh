#!/usr/bin/env bash
# Builds Node 24 base images from Debian packages, for machines that cannot pull the official `node:24-slim`
# (CI here reaches only the npm registry and Debian's mirrors). The official image's layout: Debian minbase plus
# ca-certificates, `node` in /usr/local/bin (the binary of the npm `node` package the project pins, stripped of its
# symbols), and, in the build image only, npm in /usr/local/lib/node_modules/npm (the npm running this build).
# Needs root, mmdebstrap and podman. Prints the two tags:
#
#   localhost/gw-node-base:<node version>-<suite>    what the images ship on (no npm)
#   localhost/gw-node-build:<node version>-<suite>   the same plus npm, for the build stage
#
# Both are kept in a tar under ~/.cache/gw-images, keyed by this script, the Node version and the npm version
# (images/debian-image.sh), so a CI machine whose container storage was wiped loads them instead of bootstrapping
# Debian again.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=images/debian-image.sh
source images/debian-image.sh

node_bin="$(readlink -f node_modules/node/bin/node)"
[ -x "$node_bin" ] || { echo "node_modules/node/bin/node is missing: run npm ci first" >&2; exit 1; }
node_version="$("$node_bin" --version | sed 's/^v//')"
npm_cli="${npm_execpath:-$(readlink -f "$(command -v npm)")}"
npm_dir="$(cd "$(dirname "$npm_cli")/.." && pwd)"
[ -f "$npm_dir/package.json" ] || { echo "cannot find npm's package folder (from $npm_cli)" >&2; exit 1; }
npm_version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$npm_dir/package.json")"
base_tag="localhost/gw-node-base:${node_version}-${suite}"
build_tag="localhost/gw-node-build:${node_version}-${suite}"

key="$(image_key "$node_version" "$npm_version")"
if load_cached_images node-base "$key" "$base_tag" "$build_tag"; then
  printf '%s\n%s\n' "$base_tag" "$build_tag"; exit 0
fi

require_mmdebstrap
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
install -m 0755 "$node_bin" "$work/node"
if command -v strip >/dev/null; then strip --strip-all "$work/node"; fi
# Node carries ICU, so the slim options' missing iconv modules and locales cost it nothing.
mmdebstrap "${slim_debian_options[@]}" --include=ca-certificates \
  --customize-hook="install -D -m 0755 '$work/node' \"\$1/usr/local/bin/node\"" \
  "$suite" "$work/rootfs.tar" "$mirror" 2>"$work/mmdebstrap.log" || { cat "$work/mmdebstrap.log" >&2; exit 1; }
podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change "LABEL dev.gw.base-key=$key" \
  --change 'CMD ["node"]' \
  "$work/rootfs.tar" "$base_tag" >/dev/null
mkdir -p "$work/npm-context"
cp -a "$npm_dir" "$work/npm-context/npm"
podman build --quiet --network host --label "dev.gw.base-key=$key" --tag "$build_tag" --file - "$work/npm-context" >/dev/null <<CONTAINERFILE
FROM $base_tag
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
CONTAINERFILE
save_cached_images node-base "$key" "$base_tag" "$build_tag"
printf '%s\n%s\n' "$base_tag" "$build_tag"
