#!/usr/bin/env bash
# tools/demo.sh BUILD - render the bundled demo scene (placeholder until the scene issue lands).
echo "make demo will generate scenes/demo assets and render scenes/demo.ini to demo.mp4"
