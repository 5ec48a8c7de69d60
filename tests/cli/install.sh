#!/usr/bin/env bash
# tests/cli/install.sh - `make install DESTDIR=... PREFIX=...` puts the binary, the man page
# generated from the option table and the bash/zsh completion in place; the man page, --help
# and the completion list the same options; --version names the libraries the bytes depend on.
. tests/util/cli_lib.sh
[ -x "$MMD" ] || { echo "not ok 1 - $MMD missing"; echo "# counts: 0 passed, 1 failed, 0 skipped"; exit 1; }
D=$TMP/root
t_expect "make install DESTDIR PREFIX=/opt/mmd" 0 make -s --no-print-directory install BUILD="$BUILD" DESTDIR="$D" PREFIX=/opt/mmd
for f in bin/mmdrender share/man/man1/mmdrender.1 share/bash-completion/completions/mmdrender \
         share/zsh/site-functions/_mmdrender; do
    [ -f "$D/opt/mmd/$f" ] && t_pass "installed $f" || t_fail "installed $f" "$(find "$D" -type f | head)"
done
[ -x "$D/opt/mmd/bin/mmdrender" ] && t_pass "binary is executable" || t_fail "binary is executable"
t_expect "installed binary runs --help" 0 "$D/opt/mmd/bin/mmdrender" --help
t_grep "--help lists encode and export" '^  encode .*' 
t_grep "--help names .pmm projects" 'PROJECT\.pmm'
grep -q '^  export ' <<<"$OUT" && t_pass "--help lists export" || t_fail "--help lists export"

# every option in --help is in the man page, and the other way round (one table)
help_opts=$(grep -oE -- '--[a-z][a-z-]+' <<<"$OUT" | sort -u)
man_opts=$(sed 's/\\-/-/g' "$D/opt/mmd/share/man/man1/mmdrender.1" | grep -oE -- '--[a-z][a-z-]+' | sort -u)
missing=$(comm -23 <(echo "$help_opts") <(echo "$man_opts") | tr '\n' ' ')
[ -z "$missing" ] && t_pass "man page has every --help option ($(wc -l <<<"$help_opts"))" || t_fail "man page options" "missing: $missing"
grep -q '^\.TH MMDRENDER 1' "$D/opt/mmd/share/man/man1/mmdrender.1" && t_pass "man page header" || t_fail "man page header"
if command -v man >/dev/null; then
    OUT=$(MANWIDTH=100 man -l "$D/opt/mmd/share/man/man1/mmdrender.1" 2>&1)
    t_grep "man renders the encode command" 'mmdrender encode FRAMES/ --scene'
    t_grep "man renders --frames" '--frames A-B\[:STEP\]'
    t_grep "man renders the exit codes" '130 interrupted'
else
    t_skip "man renders the page" "no man"
fi

# bash completion: commands at the first word, options from COMMAND --help
if OUT=$(bash -c '. "$1"; PATH=$2:$PATH
    COMP_WORDS=(mmdrender en); COMP_CWORD=1; _mmdrender; echo "${COMPREPLY[*]}"
    COMP_WORDS=(mmdrender scene.ini --fr); COMP_CWORD=2; _mmdrender; echo "${COMPREPLY[*]}"
    COMP_WORDS=(mmdrender encode f/ --sc); COMP_CWORD=3; _mmdrender; echo "${COMPREPLY[*]}"
    COMP_WORDS=(mmdrender concat --au); COMP_CWORD=2; _mmdrender; echo "${COMPREPLY[*]}"' _ \
    "$D/opt/mmd/share/bash-completion/completions/mmdrender" "$D/opt/mmd/bin" 2>&1); then
    [ "$(sed -n 1p <<<"$OUT")" = encode ] && t_pass "bash completes 'en' to encode" || t_fail "bash completes encode" "$OUT"
    [ "$(sed -n 2p <<<"$OUT")" = --frames ] && t_pass "bash completes --fr to --frames" || t_fail "bash --frames" "$OUT"
    [ "$(sed -n 3p <<<"$OUT")" = --scene ] && t_pass "bash completes encode's --scene" || t_fail "bash encode --scene" "$OUT"
    [ "$(sed -n 4p <<<"$OUT")" = "--audio --audio-offset" ] && t_pass "bash completes concat's own options" || t_fail "bash concat" "$OUT"
else
    t_fail "bash completion runs" "$OUT"
fi
if command -v zsh >/dev/null; then
    zsh -n "$D/opt/mmd/share/zsh/site-functions/_mmdrender" && t_pass "zsh completion parses" || t_fail "zsh completion parses"
else
    t_skip "zsh completion parses" "no zsh"
fi

# --version: ours and the libraries whose versions decide the output bytes
t_expect "--version" 0 "$D/opt/mmd/bin/mmdrender" --version
t_grep "--version: ours" '^mmdrender [0-9]+\.[0-9]+\.[0-9]+$'
t_grep "--version: Mesa" '^GL: .*Mesa [0-9]+\.[0-9]+|^GL: no context'
t_grep "--version: libav*" 'libavcodec [0-9]+\.[0-9]+\.[0-9]+ libavformat [0-9]+\.[0-9]+\.[0-9]+'
t_grep "--version: Bullet and cglm" '^Bullet [0-9]+\.[0-9]+, cglm [0-9]+\.[0-9]+\.[0-9]+'
if command -v pkg-config >/dev/null && v=$(pkg-config --modversion cglm 2>/dev/null); then
    t_grep "--version: cglm is the one we build with ($v)" "cglm $v"
fi

t_expect "make uninstall" 0 make -s --no-print-directory uninstall BUILD="$BUILD" DESTDIR="$D" PREFIX=/opt/mmd
left=$(find "$D" -type f | wc -l)
[ "$left" = 0 ] && t_pass "uninstall removed every file" || t_fail "uninstall" "$left files left"
t_done
