#!/usr/bin/env bash
# tools/demo.sh BUILD - generate the demo assets (tools/mkdemo.c) into scenes/demo/
# and render scenes/demo.ini to demo.mp4 (1280x720, 30 fps, ~10 s, with audio).
set -eu
build=${1:-build}
"$build/tools/mkdemo" scenes/demo
"$build/mmdrender" scenes/demo.ini -o demo.mp4 "${@:2}"
echo "demo.mp4 written (play it with any video player, e.g. ffplay demo.mp4)"
