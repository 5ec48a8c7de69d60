#!/usr/bin/env bash
# tests/cli/stage.sh BUILD - render and `pose --scene` cannot drift (issue 26): neither command opens
# or evaluates a scene itself (the stage does, renderer/scene/stage.h; tests/unit/test_stage.c checks
# frame by frame that they evaluate alike), and pose --scene follows render's outside-folder rule.
. tests/util/cli_lib.sh
# the commands call the stage, never what it is made of
CMDS=(renderer/cli/cmd_render.c renderer/cli/cmd_pose_scene.c renderer/cli/render_gl.c renderer/cli/render_output.c
      renderer/cli/render_loop.c)
OUT=$(grep -nE '\bmmd_(anim_create|physics_create|physics_attach|links_[a-z]+|scene_accessories_load|camera_track_create|model_load_file|motion_load_file|scene_gravity_at|camera_sample|light_sample|shadow_sample)\(' "${CMDS[@]}")
if [ -z "$OUT" ]; then t_pass "render and pose --scene open and evaluate scenes through the stage only"
else t_fail "render and pose --scene open and evaluate scenes through the stage only" "$OUT"; fi
if [ ! -x "$MMD" ] || [ ! -x "$BUILD/tools/mkdemo" ]; then
    t_skip "outside-folder rule" "skipped: $MMD or mkdemo not built"; t_done; exit
fi
t_expect "--allow-outside-assets needs --scene" 1 "$MMD" pose model.pmx --allow-outside-assets --frames 0
"$BUILD/tools/mkdemo" "$TMP/demo" >/dev/null 2>&1 || { t_fail "mkdemo generates the demo assets"; t_done; exit; }
mkdir -p "$TMP/props"
printf 'stage\r\n../demo/stage.x\r\n1\r\n0,0,0\r\n0,0,0\r\n\r\n' >"$TMP/props/stage.vac"
printf '[model:m]\nfile = demo/character.pmx\nphysics = off\n[accessory:stage]\nfile = props/stage.vac\n' >"$TMP/vac.ini"
t_expect "pose --scene: a .vac's .x outside its folder is refused, as render refuses it" 2 \
    "$MMD" pose --scene "$TMP/vac.ini" --frames 0 --json
t_grep "it names the .vac and the .x" "stage.vac: its .x file '../demo/stage.x'"
t_expect "render refuses it alike" 2 "$MMD" "$TMP/vac.ini" -o null -q --frames 0
t_grep "with the same sentence" "stage.vac: its .x file '../demo/stage.x'"
t_expect "pose --scene --allow-outside-assets takes it" 0 \
    "$MMD" pose --scene "$TMP/vac.ini" --allow-outside-assets --frames 0 --json
t_grep "and prints the accessory" '"accessories":\[\{"name":"stage"'
t_done
