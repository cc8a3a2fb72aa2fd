# Sourced by the scripts that make images from Debian packages (build-base.sh, build-test-services.sh): the suite
# and mirror, mmdebstrap's options for a slim root filesystem, and the cache of built images under
# ~/.cache/gw-images, keyed by a hash of what the image is made from, so a machine whose container storage was wiped
# loads them instead of bootstrapping Debian again.
export CONTAINERS_CONF="${CONTAINERS_CONF:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/containers.conf}"

suite="${GW_BASE_SUITE:-bookworm}"
mirror="${GW_BASE_MIRROR:-http://deb.debian.org/debian}"
cache_dir="${GW_IMAGE_CACHE:-$HOME/.cache/gw-images}"

# Merged /usr through mmdebstrap's hook rather than the usrmerge package (which drags in all of Perl); no docs,
# man pages, translations or iconv modules, as slim images do.
slim_debian_options=(
  --quiet --variant=minbase
  --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*'
  --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*'
  --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/lib/x86_64-linux-gnu/gconv/*'
  --dpkgopt='path-exclude=/usr/lib/aarch64-linux-gnu/gconv/*'
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*.log'
)

# image_key PARTS...: a short hash of the calling script, this file and PARTS (versions, package lists).
image_key() {
  (cat "$0" "${BASH_SOURCE[0]}"; echo "$suite $mirror $*") | sha256sum | cut -c1-16
}

# images_current KEY TAGS...: every tag exists and carries the label dev.gw.base-key=KEY.
images_current() {
  local key="$1" tag
  shift
  for tag in "$@"; do
    [ "$(podman image inspect --format '{{index .Labels "dev.gw.base-key"}}' "$tag" 2>/dev/null)" = "$key" ] || return 1
  done
}

# load_cached_images NAME KEY TAGS...: true when the tags are current, after loading NAME's cache if needed.
load_cached_images() {
  local name="$1" key="$2"
  shift 2
  images_current "$key" "$@" && return 0
  local cached="$cache_dir/$name-$key.tar"
  [ -f "$cached" ] && podman load --quiet --input "$cached" >/dev/null && images_current "$key" "$@"
}

# save_cached_images NAME KEY TAGS...: keeps the tags in NAME's cache (older keys of NAME are removed).
save_cached_images() {
  local name="$1" key="$2"
  shift 2
  mkdir -p "$cache_dir"
  rm -f "$cache_dir/$name"-*.tar
  podman save --quiet --multi-image-archive --output "$cache_dir/$name-$key.tar" "$@"
}

require_mmdebstrap() {
  command -v mmdebstrap >/dev/null || { echo "mmdebstrap is not installed (apt-get install -y mmdebstrap)" >&2; exit 1; }
}
