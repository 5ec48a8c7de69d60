#!/usr/bin/env bash
# tests/cli/info.sh - `mmdrender info`: JSON/text on shared assets and generated
# fixtures, exit codes and error messages for bad input.
. tests/util/cli_lib.sh

# --- generated fixtures (printf only, no tools needed) ---
# VMD v2 "test": one morph key "a" at frame 12, weight 1.0; other sections empty.
vmd=$TMP/one.vmd
{
    printf 'Vocaloid Motion Data 0002\0\0\0\0\0'
    printf 'test\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'
    printf '\0\0\0\0'                                   # bones
    printf '\1\0\0\0'                                   # morphs: 1
    printf 'a\0\0\0\0\0\0\0\0\0\0\0\0\0\0'               # name[15]
    printf '\14\0\0\0\0\0\200\77'                        # frame 12, 1.0f
    printf '\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'           # camera, light, shadow, property
} >"$vmd"
# Minimal PMD: header and every mandatory section empty.
pmd=$TMP/empty.pmd
{
    printf 'Pmd\0\0\200\77'
    printf 'model\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'
    head -c 256 /dev/zero
    printf '\0\0\0\0\0\0\0\0\0\0\0\0'                   # vertices, faces, materials
    printf '\0\0\0\0\0\0'                               # bones, IK, skins (u16)
    printf '\0\0\0\0\0\0'                               # skin display, frame names (u8), bone display (u32)
} >"$pmd"
vpd=$TMP/pose.vpd
printf 'Vocaloid Pose Data file\r\n\r\nmodel.osm;\r\n1;\r\nBone0{head\r\n 0,0,0;\r\n 0,0,0,1;\r\n}\r\nMorph0{a\r\n 0.5;\r\n}\r\n' >"$vpd"

t_expect "info --json vmd" 0 "$MMD" info --json "$vmd"
t_grep "vmd json" '"format":"vmd","version":2,"model_name":"test","counts":\{"bone":0,"morph":1,"camera":0,"light":0,"self_shadow":0,"property":0'
t_grep "vmd last frame" '"last_frame":12'
t_expect "info vmd text" 0 "$MMD" info "$vmd"
t_grep "vmd text" 'morph keys: +1'
t_expect "info --json pmd" 0 "$MMD" info --json "$pmd"
t_grep "pmd json" '"format":"pmd","version":1.0,"name":"model","name_en":"","encoding":"shift-jis","counts":\{"vertices":0,"faces":0'
t_expect "info --json vpd" 0 "$MMD" info "$vpd" --json
t_grep "vpd json" '"format":"vpd".*"counts":\{"bone":1,"morph":1'

# --- textures: the renderer's resolver (letter case, '\', model-folder rule) ---
MKFIX=$BUILD/tools/mkfixture
mkdir -p "$TMP/tx/model/tex"
"$MKFIX" textures "$TMP/tx/model/m.pmx"
: >"$TMP/tx/model/tex/face.png"
: >"$TMP/tx/outside.png"
t_expect "info --json textures" 0 "$MMD" info --json "$TMP/tx/model/m.pmx"
t_grep "case and backslash resolved" '\{"path":"TEX\\\\Face.PNG","exists":true,"status":"found","resolved":"[^"]*/model/tex/face.png"\}'
t_grep "missing texture" '\{"path":"missing.png","exists":false,"status":"missing"\}'
t_grep "outside texture refused" '\{"path":"..\\\\outside.png","exists":false,"status":"refused"\}'
t_expect "info textures text" 0 "$MMD" info "$TMP/tx/model/m.pmx"
t_grep "text: found under its case" 'TEX/Face.PNG +ok \(.*/model/tex/face.png\)'
t_grep "text: refused" '\.\./outside.png +REFUSED: .*model folder'
t_expect "info --allow-outside-assets" 0 "$MMD" info --json --allow-outside-assets "$TMP/tx/model/m.pmx"
t_grep "outside texture allowed" '"path":"..\\\\outside.png","exists":true,"status":"found"'

# --- repairs: one line per kind with element and offset (docs/compat.md) ---
"$MKFIX" oddities "$TMP/odd.pmx"
t_expect "appearance-only fields out of range load" 0 "$MMD" info "$TMP/odd.pmx"
t_grep "warning count" 'warnings: +5 \(repaired oddities\)'
t_grep "sphere mode line" 'warning: .*odd\.pmx: offset 0x105, pmx\.material #0: sphere mode out of range \(0\.\.3\): no sphere \(and 1 more\)'
t_grep "2.1 flag line" 'offset 0x19a, pmx\.material #2: PMX 2\.1 draw flags'
t_grep "material morph op line" 'pmx\.morph #0: material morph operation out of range'
t_grep "morph panel line" 'pmx\.morph #0: morph panel out of range \(0\.\.4\): filed under "other"'
t_expect "info --json warnings array" 0 "$MMD" info --json "$TMP/odd.pmx"
t_grep "json warnings" '"warnings":\[\{"section":"pmx\.material","item":0,"offset":261,"what":"sphere mode out of range \(0\.\.3\): no sphere","count":2\},\{"section":"pmx\.material","item":2,"offset":410,.*"count":1\}.*\],"warning_count":5\}'
"$MKFIX" vmd-tail "$TMP/tail.vmd"
t_expect "vmd with a garbage camera count loads" 0 "$MMD" info --json "$TMP/tail.vmd"
t_grep "complete sections kept" '"counts":\{"bone":1,"morph":1,"camera":0'
t_grep "one warning names section and offset" '"warnings":\[\{"section":"vmd\.camera","item":-1,"offset":192,"what":"optional section cut short or with a garbage count: it and the sections after it are ignored","count":1\}\],"warning_count":1'
t_expect "info vmd text warning" 0 "$MMD" info "$TMP/tail.vmd"
t_grep "text warning line" 'warning: .*tail\.vmd: offset 0xc0, vmd\.camera: optional section'

# --- bad input ---
head -c 60 "$vmd" >"$TMP/cut.vmd"
printf '\1\0\0\0' | dd of="$TMP/cut.vmd" bs=1 seek=50 conv=notrunc 2>/dev/null
t_expect "truncated vmd exits 2" 2 "$MMD" info "$TMP/cut.vmd"
t_grep "truncated vmd message" 'cut\.vmd: offset 0x32, vmd\.bone: '
head -c 300 "$pmd" >"$TMP/cut.pmd"
t_expect "truncated pmd exits 2" 2 "$MMD" info --json "$TMP/cut.pmd"
t_grep "truncated pmd message" 'cut\.pmd: offset 0x[0-9a-f]+, pmd\.'
t_expect "missing file exits 2" 2 "$MMD" info "$TMP/nope.pmx"
t_grep "missing file message" 'nope\.pmx: cannot open'
printf 'hello' >"$TMP/x.bin"
t_expect "unknown format exits 2" 2 "$MMD" info "$TMP/x.bin"
t_expect "no file is a usage error" 1 "$MMD" info
t_expect "bad option is a usage error" 1 "$MMD" info --frobnicate "$vmd"
t_expect "--help" 0 "$MMD" info --help
t_grep "help text" 'usage: mmdrender info FILE'
t_grep "help lists the formats of core/sniff.h" 'model \(\.pmx, \.pmd\), motion \(\.vmd, \.vpd\) or accessory \(\.x\)'

# --- .x accessories (generated seeds of tests/fuzz/corpus/x) ---
for f in sample_txt sample_bin32 sample_tzip sample_bzip64; do
    t_expect "info --json $f.x" 0 "$MMD" info --json "tests/fuzz/corpus/x/$f.x"
    t_grep "$f.x counts" '"counts":\{"meshes":1,"frames":[01],"vertices":7,"faces":3,"triangles":3,"materials":2,"drawn_vertices":7\}'
done
t_grep "x encoding" '"encoding":"bzip","float_bits":64'
t_grep "x textures" '"textures":\[\{"path":"テクスチャ.png","kind":"texture","exists":false,"status":"missing"\},\{"path":"env.spa","kind":"sphere_add","exists":false,"status":"missing"\}\]'
t_expect "info quirks.x text" 0 "$MMD" info tests/fuzz/corpus/x/quirks.x
t_grep "x text screen" 'screen\.bmp +screen +ok \(previous frame\)'
t_grep "x text format" 'DirectX \.x 3\.03 \(text, 64-bit floats\)'
if [ -f "$SHARED_ASSETS/x/nanoem_test.x" ]; then # 4 positions in the file, one per corner drawn (6)
    t_expect "info nanoem_test.x" 0 "$MMD" info "$SHARED_ASSETS/x/nanoem_test.x"
    t_grep "x: the file's vertex count, the drawn one beside" '^vertices: +4 \(6 drawn\)'
else
    t_skip "x: the file's vertex count" "skipped: no ../shared"
fi
head -c 200 tests/fuzz/corpus/x/sample_bin32.x >"$TMP/cut.x"
t_expect "truncated .x exits 2" 2 "$MMD" info "$TMP/cut.x"
t_grep "truncated .x message" 'cut\.x: offset 0x[0-9a-f]+, x: '
printf 'RIFF not a model\n' >"$TMP/what.bin"
t_expect "unknown signature exits 2" 2 "$MMD" info "$TMP/what.bin"
t_grep "unknown signature names the formats info reads (core/sniff.h)" 'what\.bin: .*not a PMX, PMD, VMD, VPD or \.x file \(unknown signature\)$'
printf '\xEF\xBB\xBFVocaloid Pose Data file\r\nm.osm;\r\n0;\r\n' >"$TMP/bom.vpd"
t_expect "a VPD after a UTF-8 BOM is a motion" 0 "$MMD" info "$TMP/bom.vpd"

# --- shared assets ---
gene=$SHARED_ASSETS/gene/Gene_light.pmx
if [ -f "$gene" ]; then
    t_expect "info --json Gene_light.pmx" 0 "$MMD" info --json "$gene"
    t_grep "gene counts" '"counts":\{"vertices":28646,"faces":47106,"textures":10,"materials":13,"bones":224,"morphs":184,"display_frames":15,"rigid_bodies":87,"joints":92,"soft_bodies":0\}'
    t_grep "gene weights" '"weight_types":\{"bdef1":13552,"bdef2":10178,"bdef4":4916,"sdef":0,"qdef":0\}'
    t_grep "gene textures exist" '\{"path":"light/arm.png","exists":true,"status":"found","resolved":"[^"]*/light/arm.png"\}'
    t_expect "info Gene_light.pmx text" 0 "$MMD" info "$gene"
    t_grep "gene text textures" 'light/arm.png +ok'
    t_expect "info --json stand.vmd" 0 "$MMD" info --json "$SHARED_ASSETS/gene/motion/stand.vmd"
    t_grep "stand counts" '"counts":\{"bone":470,"morph":184,"camera":0,"light":0,"self_shadow":0,"property":1,.*"last_frame":120'
    head -c 1000 "$gene" >"$TMP/gene_cut.pmx"
    t_expect "truncated pmx exits 2" 2 "$MMD" info "$TMP/gene_cut.pmx"
    t_grep "truncated pmx message" 'gene_cut\.pmx: offset 0x[0-9a-f]+'
else
    t_skip "shared assets" "skipped: no ../shared"
fi
t_done
