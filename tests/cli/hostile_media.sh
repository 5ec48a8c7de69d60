#!/usr/bin/env bash
# tests/cli/hostile_media.sh BUILD - hostile inputs, round 3 (issue 24), classes 1
# and 2: a song, background video or concat chunk is the file of that name, read
# by us (renderer/output/media_open.c), never a URL for libavformat and never a
# playlist or script that reads other files. A secret file sits beside each trap;
# every case asserts the exit code, the message, and that the secret's bytes are
# nowhere in the output. The traps leaked before (the secret's bytes in the AVI's
# PCM audio, the playlist's segment drawn as the background). Assets come from our
# own writers and mmdrender itself: no ffmpeg needed.
. tests/util/cli_lib.sh

model=tests/fuzz/corpus/pmx/v20_utf16.pmx motion=tests/fuzz/corpus/vmd/full.vmd
if [ ! -x "$MMD" ] || [ ! -f "$model" ] || [ ! -f "$motion" ]; then
    t_skip "hostile media" "skipped: no $MMD or fuzz seeds"; t_done; exit
fi
MMD=$(cd "$(dirname "$MMD")" && pwd)/$(basename "$MMD")
MKP=$(cd "$BUILD" && pwd)/tools/mkproject
W=$TMP/w # the scenes' folder and the working directory: "concat:..." is a relative name
mkdir -p "$W"
cp "$model" "$W/fixture.pmx"
cp "$motion" "$W/full.vmd"
in_w() { (cd "$W" && exec "$@"); }
Q=(--progress none -q)
scene() { # FILE [extra lines]
    printf '[output]\nwidth = 32\nheight = 24\nfps = 30\nantialias = 1\n[model]\nfile = fixture.pmx\nmotion = full.vmd\nphysics = off\n%s' \
        "${2:-}" >"$W/$1"
}
le16() { printf "$(printf '\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)))"; }
le32() { printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
wav_head() { # DATA_BYTES: a WAV header, 48 kHz stereo 16-bit PCM (an AVI's PCM track keeps the bytes)
    printf RIFF; le32 $((36 + $1)); printf 'WAVEfmt '; le32 16; le16 1; le16 2; le32 48000; le32 192000; le16 4; le16 16
    printf data; le32 "$1"
}
silent_wav() { { wav_head 6400; head -c 6400 /dev/zero; } >"$1"; }
printf 'TOP-SECRET-%053d' 0 >"$W/secret.txt" # 64 bytes: 16 stereo samples
{ wav_head 64; cat "$W/secret.txt"; } >"$W/x.wav" # the secret as a song
# no_secret NAME FILE...: pass when no file holds the secret's bytes
no_secret() {
    local n=$1; shift
    if grep -q -a -F TOP-SECRET "$@" 2>/dev/null; then t_fail "$n: the secret is not in the output"; else t_pass "$n: the secret is not in the output"; fi
}
scene plain.ini
in_w "$MMD" plain.ini -o plain/ "${Q[@]}" --frames 0 >/dev/null 2>&1

# --- class 1: a name is a file name, never a URL ----------------------------------
# concat:h.wav|/abs/secret.txt, with a decoy of that name so the existence check passes
wav_head 64 >"$W/h.wav"
mkdir -p "$W/concat:h.wav|$W"
silent_wav "$W/concat:h.wav|$W/secret.txt"
scene concat.ini "$(printf '[audio]\nfile = concat:h.wav|%s/secret.txt\n' "$W")"
t_expect "[audio] file = concat:h.wav|SECRET: the decoy of that name is the song, exit 0" 0 in_w "$MMD" concat.ini -o concat.avi "${Q[@]}" --frames 0-1
no_secret "concat: song" "$W/concat.avi"
silent_wav "$W/file:x.wav"
scene file.ini $'[audio]\nfile = file:x.wav\n'
t_expect "[audio] file = file:x.wav: the file named so is the song, exit 0" 0 in_w "$MMD" file.ini -o file.avi "${Q[@]}" --frames 0-1
no_secret "file: song" "$W/file.avi"
mkdir -p "$W/concat:seg.mkv|$W"
echo 'not a video' >"$W/concat:seg.mkv|$W/secret.txt"
scene bgconcat.ini "$(printf '[background]\nvideo = concat:seg.mkv|%s/secret.txt\n' "$W")"
t_expect "[background] video = concat:...: a warning, the render goes on" 0 in_w "$MMD" bgconcat.ini -o bgconcat/ --frames 0
t_grep "the warning names the file of that name" "warning: background video not drawn: concat:seg\\.mkv\\|.*secret\\.txt: cannot open the background video"

# --- class 2: playlists and scripts are refused for what they are ------------------
# seg.mkv: a real segment holding the secret (PCM audio) and frames of another scene
scene seg.ini $'[audio]\nfile = x.wav\n'
in_w "$MMD" seg.ini -o seg.mkv "${Q[@]}" --frames 0-1 --codec utvideo --background '#ff00ff' >/dev/null 2>&1
grep -q -a -F TOP-SECRET "$W/seg.mkv" && t_pass "the segment holds the secret" || t_fail "the segment holds the secret"
hls() { printf '#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n%s\n#EXT-X-ENDLIST\n' "$2" >"$1"; }
hls "$W/song.wav" seg.mkv
hls "$W/clip.avi" seg.mkv
printf 'ffconcat version 1.0\nfile x.wav\n' >"$W/script.wav"
printf 'ffconcat version 1.0\nfile seg.mkv\n' >"$W/script.avi"
for s in song.wav script.wav; do
    scene "a_$s.ini" "$(printf '[audio]\nfile = %s\n' "$s")"
    t_expect "[audio] file = $s (a playlist or script): exit 2" 2 in_w "$MMD" "a_$s.ini" -o "a_$s.avi" "${Q[@]}" --frames 0-1
    [ ! -e "$W/a_$s.avi" ] && t_pass "$s: no output written" || no_secret "$s" "$W/a_$s.avi"
done
in_w "$MMD" a_song.wav.ini -o a.avi --progress none --frames 0-1 >/dev/null 2>"$TMP/err"; OUT=$(cat "$TMP/err")
t_grep "the HLS song is named for what it is" "song\\.wav: is an Apple HTTP Live Streaming \\(hls\\), not an audio file \\(taken: WAV"
in_w "$MMD" a_script.wav.ini -o a.avi --progress none --frames 0-1 >/dev/null 2>"$TMP/err"; OUT=$(cat "$TMP/err")
t_grep "the ffconcat song is named for what it is" "script\\.wav: is a Virtual concatenation script \\(concat\\), not an audio file"
for v in clip.avi script.avi; do
    scene "v_$v.ini" "$(printf '[background]\nvideo = %s\n' "$v")"
    t_expect "[background] video = $v (a playlist or script): a warning, the render goes on" 0 in_w "$MMD" "v_$v.ini" -o "v_$v/" --frames 0
    t_grep "$v: the warning says what it is" "warning: background video not drawn: $v: is an? .* \\((hls|concat)\\), not a video file"
    t_expect "$v: the frame is the frame without a background video" 0 "$MMD" diff "$W/plain/frame_000000.png" "$W/v_$v/frame_000000.png"
done
# an image-sequence pattern: libavformat's image2 would read frame_000000.png, frame_000001.png, ...
in_w "$MMD" plain.ini -o seq/ "${Q[@]}" --frames 0-2 --background '#ff00ff' >/dev/null 2>&1
cp "$W/seq/frame_000000.png" "$W/seq/frame_%06d.png"
scene v_seq.ini $'[background]\nvideo = seq/frame_%06d.png\n'
t_expect "[background] video = seq/frame_%06d.png (a pattern): a warning, the render goes on" 0 in_w "$MMD" v_seq.ini -o v_seq/ --frames 0
t_grep "the pattern is named for what it is" "frame_%06d\.png: is an? .* \((image2|png_pipe)\), not a video file"
t_expect "the pattern: the frame is the frame without a background video" 0 "$MMD" diff "$W/plain/frame_000000.png" "$W/v_seq/frame_000000.png"

# --- the same through a MikuMikuDance project ---------------------------------------
if "$MKP" "$TMP/p" >/dev/null 2>&1; then
    cp "$W/song.wav" "$W/clip.avi" "$W/seg.mkv" "$TMP/p/proj/"
    t_expect "project: the HLS song refuses the render, exit 2" 2 "$MMD" "$TMP/p/proj/media.pmm" -o "$TMP/pm.avi" \
        --asset-root "$TMP/p/assets" --frames 0-1 --progress none
    t_grep "project: the song is named for what it is" "song\\.wav: is an Apple HTTP Live Streaming \\(hls\\), not an audio file"
    [ ! -e "$TMP/pm.avi" ] && t_pass "project: no output written" || no_secret "project" "$TMP/pm.avi"
    t_expect "project: the HLS background video is a warning, PNGs render" 0 "$MMD" "$TMP/p/proj/media.pmm" -o "$TMP/pv/" \
        --asset-root "$TMP/p/assets" --frames 0 --progress none
    t_grep "project: the video is named for what it is" "background video not drawn: .*clip\\.avi: is an Apple HTTP Live Streaming"
else
    t_fail "mkproject writes the fixtures"
fi

# --- concat: chunks and --audio --------------------------------------------------------
in_w "$MMD" plain.ini -o c0.mp4 "${Q[@]}" --frames 0-1 >/dev/null 2>&1
hls "$W/c1.mp4" c0.mp4
printf 'ffconcat version 1.0\nfile c0.mp4\n' >"$W/c2.mp4"
for c in c1.mp4 c2.mp4; do
    t_expect "concat: a chunk that is a playlist or script ($c): exit 2" 2 "$MMD" concat "$W/c0.mp4" "$W/$c" -o "$W/cat_$c"
    t_grep "concat: $c is named for what it is" "$c: is an? .* \\((hls|concat)\\), not a video chunk"
done
t_expect "concat --audio with an HLS song: exit 2" 2 "$MMD" concat "$W/c0.mp4" --audio "$W/song.wav" -o "$W/cat.mp4"
t_grep "concat: the song is named for what it is" "song\\.wav: is an Apple HTTP Live Streaming"
[ ! -e "$W/cat.mp4" ] && t_pass "concat: no output written" || no_secret "concat --audio" "$W/cat.mp4"

t_done
