# bash completion for mmdrender (installed by `make install`).
# Commands and options are read from `mmdrender [COMMAND] --help`, printed from the
# binary's one option table (renderer/cli/options.c): nothing is listed twice.
_mmdrender() {
    local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} sub="" cmds c
    cmds=$("$prog" --help 2>/dev/null | sed -n '/^commands/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
    if [ "$COMP_CWORD" -gt 1 ]; then
        for c in $cmds; do [ "${COMP_WORDS[1]}" = "$c" ] && sub=$c; done
    fi
    if [[ $cur == -* ]]; then
        # shellcheck disable=SC2207 # words without spaces
        COMPREPLY=($(compgen -W "$("$prog" $sub --help 2>/dev/null | grep -oE -- '--[a-z][a-z-]+' | sort -u)" -- "$cur"))
        return
    fi
    # shellcheck disable=SC2207
    [ "$COMP_CWORD" -eq 1 ] && COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
    # shellcheck disable=SC2207
    COMPREPLY+=($(compgen -f -- "$cur"))
}
complete -o filenames -F _mmdrender mmdrender
