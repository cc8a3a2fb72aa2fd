# Sourced by scripts that fetch Debian packages for tests without installing anything system-wide.
# private_apt_setup DIR SUITE MIRROR  → fills the APT_OPTS array with a private apt state under DIR and updates it.
private_apt_setup() {
  local dir="$1" suite="$2" mirror="$3"
  mkdir -p "$dir/etc/sources.list.d" "$dir/etc/preferences.d" "$dir/state/lists/partial" "$dir/cache/archives/partial"
  touch "$dir/state/status"
  printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' "$mirror" "$suite" >"$dir/etc/sources.list"
  APT_OPTS=(
    -o "Dir::Etc::SourceList=$dir/etc/sources.list"
    -o "Dir::Etc::SourceParts=$dir/etc/sources.list.d"
    -o "Dir::Etc::Preferences=$dir/etc/preferences"
    -o "Dir::Etc::PreferencesParts=$dir/etc/preferences.d"
    -o "Dir::State=$dir/state"
    -o "Dir::State::status=$dir/state/status"
    -o "Dir::Cache=$dir/cache"
    -o "Dir::Cache::pkgcache=$dir/cache/pkgcache.bin"
    -o "Dir::Cache::srcpkgcache=$dir/cache/srcpkgcache.bin"
    -o "Debug::NoLocking=1"
    -o "APT::Architecture=amd64"
    -o "APT::Architectures=amd64"
    -o "APT::Sandbox::User=root"
  )
  apt-get "${APT_OPTS[@]}" -qq update >&2
}
