#!/usr/bin/env bash
# tests/cli/codecs.sh BUILD - the editing and delivery codecs, read back with ffprobe/ffmpeg:
# UtVideo AVI + PCM, ProRes 422 HQ / 4444 in MOV, HEVC, H.264 High 10 and 4:4:4; lossless
# codecs decode bit-exact to the PNG output of the same frames; same bytes on every run.
. tests/util/cli_lib.sh
MKDEMO=$BUILD/tools/mkdemo

if [ ! -x "$MMD" ] || [ ! -x "$MKDEMO" ]; then
    t_skip "codecs cli" "skipped: $MMD or $MKDEMO not built"; t_done; exit
fi
if ! command -v ffprobe >/dev/null || ! command -v ffmpeg >/dev/null; then
    t_skip "codecs cli" "skipped: no ffmpeg/ffprobe"; t_done; exit
fi
"$MKDEMO" "$TMP/demo" >/dev/null 2>&1 || { t_fail "mkdemo generates the demo assets"; t_done; exit; }
# Without the demo's .x stage: its tiled floor and live screen put a 160x90 4:2:2 ProRes frame
# past the lossy check below (2.2-4% of pixels off by > 12, 1.6% without it); the codecs are
# what this file tests, not the content.
awk '/^\[/ { skip = /^\[accessory/ } !skip' scenes/demo.ini >"$TMP/scene.ini"
S=$TMP/scene.ini
SMALL=(--size 160x90 --aa 1 --progress none -q --frames 0-9)
# one line per stream: codec, profile, pix_fmt or sample_fmt, tag
probe() { ffprobe -v error -show_entries stream=codec_type,codec_name,profile,pix_fmt,sample_fmt,sample_rate,codec_tag_string -of compact=p=0:nk=0 "$1" 2>&1; }
# decode every frame of a video to RGBA PNGs named like our PNG sink's (frame_000000.png ...)
decode() { rm -rf "$2"; mkdir -p "$2" && ffmpeg -v error -y -i "$1" -map 0:v -pix_fmt rgba -start_number 0 "$2/frame_%06d.png"; }

t_expect "PNG reference frames" 0 "$MMD" "$S" -o "$TMP/png/" "${SMALL[@]}"
t_expect "transparent PNG reference frames" 0 "$MMD" "$S" -o "$TMP/pngt/" "${SMALL[@]}" --background transparent

# --- UtVideo AVI ------------------------------------------------------------------
t_expect ".avi defaults to utvideo" 0 "$MMD" "$S" -o "$TMP/u.avi" "${SMALL[@]}"
OUT=$(probe "$TMP/u.avi")
t_grep "avi: utvideo RGB (gbrp)" 'codec_name=utvideo\|.*codec_tag_string=ULRG\|pix_fmt=gbrp$'
t_grep "avi: 16-bit PCM audio at 48 kHz" 'codec_name=pcm_s16le\|.*codec_type=audio\|.*sample_fmt=s16\|sample_rate=48000'
decode "$TMP/u.avi" "$TMP/dec_u"
t_expect "utvideo decodes bit-exact to the PNGs" 0 "$MMD" diff "$TMP/png" "$TMP/dec_u"
t_grep "10 frames compared" '^10 images: 10 ok'
t_expect "transparent .avi" 0 "$MMD" "$S" -o "$TMP/ut.avi" "${SMALL[@]}" --background transparent
OUT=$(probe "$TMP/ut.avi")
t_grep "transparent avi: utvideo with alpha (gbrap)" 'codec_name=utvideo\|.*pix_fmt=gbrap'
decode "$TMP/ut.avi" "$TMP/dec_ut"
t_expect "utvideo RGBA decodes bit-exact to the transparent PNGs" 0 "$MMD" diff "$TMP/pngt" "$TMP/dec_ut"
alpha_range() { ffmpeg -v error -i "$1" -frames:v 1 -vf alphaextract,signalstats,metadata=print:file=- -f null - 2>&1 | grep -E 'YM(IN|AX)=' | tr '\n' ' '; }
OUT=$(alpha_range "$TMP/ut.avi")
t_grep "transparent avi: alpha from 0 to 255" 'YMIN=0 .*YMAX=255'

t_expect "--codec utvideo in .mkv" 0 "$MMD" "$S" -o "$TMP/u.mkv" "${SMALL[@]}" --codec utvideo

# farm chunks of UtVideo AVI joined by concat: RGB kept (the tag ULRG, not the AVI table's first,
# ULRA), PCM audio, still bit-exact
t_expect "utvideo chunk 0/2" 0 "$MMD" "$S" -o "$TMP/c0.avi" "${SMALL[@]}" --chunk 0/2
t_expect "utvideo chunk 1/2" 0 "$MMD" "$S" -o "$TMP/c1.avi" "${SMALL[@]}" --chunk 1/2
t_expect "concat .avi chunks with the song" 0 "$MMD" concat "$TMP/c0.avi" "$TMP/c1.avi" --audio "$TMP/demo/beat.wav" -o "$TMP/cat.avi"
OUT=$(probe "$TMP/cat.avi")
t_grep "joined avi: utvideo RGB" 'codec_name=utvideo\|.*codec_tag_string=ULRG\|pix_fmt=gbrp$'
t_grep "joined avi: PCM audio" 'codec_name=pcm_s16le\|.*codec_type=audio'
decode "$TMP/cat.avi" "$TMP/dec_cat"
t_expect "joined utvideo decodes bit-exact to the PNGs" 0 "$MMD" diff "$TMP/png" "$TMP/dec_cat"

# --- the other lossless codecs decode bit-exact too ------------------------------------
for c in ffv1:mkv qtrle:mov x264rgb:mp4; do
    name=${c%%:*} ext=${c##*:}
    t_expect "--codec $name" 0 "$MMD" "$S" -o "$TMP/l_$name.$ext" "${SMALL[@]}" --codec "$name" --no-audio
    decode "$TMP/l_$name.$ext" "$TMP/dec_$name"
    t_expect "$name decodes bit-exact to the PNGs" 0 "$MMD" diff "$TMP/png" "$TMP/dec_$name"
done

# --- ProRes ------------------------------------------------------------------------
t_expect "--codec prores" 0 "$MMD" "$S" -o "$TMP/p.mov" "${SMALL[@]}" --codec prores
OUT=$(probe "$TMP/p.mov")
t_grep "prores 422 HQ, 10-bit 4:2:2" 'codec_name=prores\|profile=HQ\|codec_type=video\|codec_tag_string=apch\|pix_fmt=yuv422p10le'
t_grep "prores mov: PCM audio" 'codec_name=pcm_s16le\|.*codec_type=audio'
t_expect "--codec prores, transparent" 0 "$MMD" "$S" -o "$TMP/pt.mov" "${SMALL[@]}" --codec prores --background transparent
OUT=$(probe "$TMP/pt.mov")
t_grep "prores 4444 with alpha" 'codec_name=prores\|profile=4444\|codec_type=video\|codec_tag_string=ap4h\|pix_fmt=yuva444p1[02]le'
OUT=$(alpha_range "$TMP/pt.mov")
t_grep "prores 4444: alpha from 0 to full" 'YMIN=0 .*YMAX=(255|1023|4095|65520|65535)'
decode "$TMP/p.mov" "$TMP/dec_p"
t_expect "prores is close to the PNGs (lossy)" 0 "$MMD" diff "$TMP/png" "$TMP/dec_p" --threshold 12 --max-fraction 0.02
t_expect "prores in .mp4 is refused" 1 "$MMD" "$S" -o "$TMP/x.mp4" "${SMALL[@]}" --codec prores
t_grep "the refusal lists the codecs .mp4 takes" "codec 'prores' does not go in .mp4 \(expected one of: h264 h264-10 h264-444 x264rgb hevc\)"

# --- HEVC, H.264 High 10 and 4:4:4 -----------------------------------------------------------
t_expect "--codec hevc" 0 "$MMD" "$S" -o "$TMP/h.mp4" "${SMALL[@]}" --codec hevc
OUT=$(probe "$TMP/h.mp4")
t_grep "hevc Main, tagged hvc1" 'codec_name=hevc\|profile=Main\|codec_type=video\|codec_tag_string=hvc1\|pix_fmt=yuv420p$'
t_grep "hevc mp4: AAC audio" 'codec_name=aac\|.*codec_type=audio'
t_expect "x265 prints nothing with -q" 0 test -z "$("$MMD" "$S" -o "$TMP/h2.mp4" "${SMALL[@]}" --codec hevc 2>&1)"
t_expect "hevc cannot be transparent" 1 "$MMD" "$S" -o "$TMP/x.mkv" "${SMALL[@]}" --codec hevc --background transparent
t_grep "no-alpha refusal names the alpha codecs" "codec 'hevc' has no alpha: use .*utvideo .*prores"
t_expect "--codec h264-10" 0 "$MMD" "$S" -o "$TMP/h10.mp4" "${SMALL[@]}" --codec h264-10
OUT=$(probe "$TMP/h10.mp4")
t_grep "H.264 High 10" 'codec_name=h264\|profile=High 10\|.*pix_fmt=yuv420p10le'
t_expect "--codec h264-444" 0 "$MMD" "$S" -o "$TMP/h444.mov" "${SMALL[@]}" --codec h264-444 --preset ultrafast
OUT=$(mp4_atoms "$TMP/h444.mov")
t_grep "mov is faststart: moov before mdat" '^ftyp (free )?moov .*mdat'
OUT=$(probe "$TMP/h444.mov")
t_grep "H.264 High 4:4:4" 'codec_name=h264\|profile=High 4:4:4 Predictive\|.*pix_fmt=yuv444p$'

# --- determinism: the same bytes on every run (threads fixed by default) -----------------------
for c in utvideo:avi prores:mov hevc:mp4 h264-10:mkv; do
    name=${c%%:*} ext=${c##*:}
    "$MMD" "$S" -o "$TMP/r1.$ext" "${SMALL[@]}" --codec "$name"
    "$MMD" "$S" -o "$TMP/r2.$ext" "${SMALL[@]}" --codec "$name" --threads 1
    "$MMD" "$S" -o "$TMP/r3.$ext" "${SMALL[@]}" --codec "$name"
    cmp -s "$TMP/r1.$ext" "$TMP/r3.$ext" && cmp -s "$TMP/r1.$ext" "$TMP/r2.$ext" \
        && t_pass "$name: same bytes on two runs and with --threads 1" || t_fail "$name: same bytes on every run"
done
for c in utvideo:avi prores:mov; do
    name=${c%%:*} ext=${c##*:}
    "$MMD" "$S" -o "$TMP/s1.$ext" "${SMALL[@]}" --codec "$name" --threads 1
    "$MMD" "$S" -o "$TMP/s2.$ext" "${SMALL[@]}" --codec "$name" --threads 2
    cmp -s "$TMP/s1.$ext" "$TMP/s2.$ext" && t_pass "$name: same bytes with --threads 1 and 2" \
        || t_fail "$name: same bytes with --threads 1 and 2"
done
ls -a "$TMP" | grep -q '\.part-' && t_fail "no temp files left" "$(ls -a "$TMP")" || t_pass "no temp files left"
t_done
