#!/usr/bin/env bash
# tools/deps.sh - install the Debian 12 packages mmdrender needs (idempotent).
# Runs apt-get only when something is missing; `apt-get update` first then.
set -eu
pkgs=(build-essential pkg-config libosmesa6-dev libegl-dev libgl-dev libpng-dev libcglm-dev
      libinih-dev libstb-dev libavcodec-dev libavformat-dev libavutil-dev libswscale-dev
      libswresample-dev libbullet-dev zlib1g-dev ffmpeg)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
