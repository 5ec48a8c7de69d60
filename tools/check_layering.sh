#!/usr/bin/env bash
# tools/check_layering.sh - the include arrows between the source folders.
#
#   core/              pure data: no GL, PNG, libav, INI, nothing from renderer/
#   renderer/base/     small helpers (messages, file system): core/ only
#   renderer/image/    image files (decode, PNG, diff, texture paths): base, core
#   renderer/fx/       the effect translator (HLSL to SPIR-V to GLSL, no GL): base, core
#   renderer/gl/       GL context, shaders, passes: fx, image, base, core
#   renderer/output/   frame sinks (PNG, video, audio, YUV), background video frames: image, base, core
#   renderer/scene/    the scene value (scene.ini, .pmm projects), the frame plan, outside parents,
#                      accessories: gl, image, base, core (never output or cli)
#   renderer/cli/      commands, options, the frame loop: everything above
#
# Never gl <-> output, never back to cli. Prints each offending line; exit 1.
set -u
cd "$(dirname "$0")/.."
bad=0
check() { # folder, include pattern that is forbidden there, why
    local hits
    hits=$(grep -rnE "#include *[<\"]($2)" "$1" 2>/dev/null)
    if [ -n "$hits" ]; then
        printf '%s\n' "$hits"
        echo "layering: $1 $3"
        bad=1
    fi
}
check core 'GL/|EGL/|png\.h|libav|renderer/|ini\.h' "must stay free of GL, PNG, libav, INI and renderer/ headers"
check renderer/base 'GL/|EGL/|png\.h|libav|ini\.h|renderer/(image|gl|output|cli|scene|fx)/' "may include only core/ and itself"
check renderer/image 'GL/|EGL/|libav|ini\.h|renderer/(gl|output|cli|scene|fx)/' "may include only base/, core/ and itself"
check renderer/fx 'GL/|EGL/|png\.h|libav|ini\.h|renderer/(image|gl|output|cli|scene)/' "may include only base/, core/ and itself"
check renderer/gl 'libav|ini\.h|png\.h|renderer/(output|cli|scene)/' "may include only fx/, image/, base/, core/ and itself"
check renderer/output 'GL/|EGL/|ini\.h|renderer/(gl|cli|scene|fx)/' "may include only image/, base/, core/ and itself"
check renderer/scene 'GL/|EGL/|png\.h|libav|renderer/(output|cli)/' "may include only gl/, image/, base/, core/ and itself"
exit $bad
