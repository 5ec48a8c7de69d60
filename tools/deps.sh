#!/usr/bin/env bash
# tools/deps.sh - install the Debian 12 packages mmdrender needs (tools/packages.txt; idempotent).
# Runs apt-get only when something is missing; `apt-get update` first then.
# tools/deps.sh --browser: Debian's Chromium for the diff report's browser test
# (tests/cli/diff_report.sh), best effort: it says why and exits 0 when it cannot.
set -eu
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
export DEBIAN_FRONTEND=noninteractive
if [ "${1:-}" = --browser ]; then
    command -v chromium >/dev/null && exit 0
    echo "installing: chromium (for the diff report test)"
    if ! { $sudo apt-get update -q && $sudo apt-get install -y -q --no-install-recommends \
               -o DPkg::Lock::Timeout=300 chromium; } >/dev/null 2>&1; then
        echo "tools/deps.sh: chromium could not be installed (no network, no root or no sudo?)" >&2
    fi
    exit 0
fi
# The list is tools/packages.txt (also the Dockerfile's, through this script).
mapfile -t pkgs < <(sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$(dirname "${BASH_SOURCE[0]}")/packages.txt")
[ ${#pkgs[@]} -gt 0 ] || { echo "tools/deps.sh: tools/packages.txt lists no package" >&2; exit 1; }
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
