#!/usr/bin/env bash
# Installs Debian's `chromium` when it is absent, for the e2e test that drives a real headless browser through the
# console sign-in (playwright-core launches /usr/bin/chromium; no browser is downloaded by npm).
set -euo pipefail

if command -v chromium >/dev/null; then exit 0; fi
echo "installing chromium" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
