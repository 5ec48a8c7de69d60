#!/usr/bin/env bash
# tests/cli/status_guard.sh - a status inserted in the middle of MMD_STATUS_LIST (core/status.h)
# cannot exit 0 (issue 26): with the class OK it does not compile (core/status.c applies
# MMD_X_STATUS_GUARD to every row); with any other class it compiles and exits non-zero, and
# the statuses after it keep their exit codes. The real status.c and exit.c are built against a
# copy of status.h with the row inserted after MMD_E_TRUNCATED. Last, no function in core/ or
# renderer/ writes its error into a caller's buffer.
. tests/util/cli_lib.sh
CC=${CC:-cc}
FLAGS=(-std=c11 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE)
row_after='X(MMD_E_TRUNCATED, "truncated", MMD_CLASS_INPUT)'
grep -qF "$row_after" core/status.h || { t_fail "status.h has the row to insert after"; t_done; exit; }

# with_row CLASS: $TMP/CLASS/core/status.h = status.h with MMD_E_INSERTED of that class mid-list
with_row() {
    mkdir -p "$TMP/$1/core"
    awk -v after="$row_after" -v cls="$1" '{ print } index($0, after) { print "    X(MMD_E_INSERTED, \"inserted\", " cls ") \\" }' \
        core/status.h >"$TMP/$1/core/status.h"
}

with_row MMD_CLASS_OK
grep -q 'MMD_E_INSERTED' "$TMP/MMD_CLASS_OK/core/status.h" && t_pass "the row is inserted mid-list" || t_fail "the row is inserted mid-list"
OUT=$("$CC" "${FLAGS[@]}" -I"$TMP/MMD_CLASS_OK" -I. -c core/status.c -o "$TMP/ok.o" 2>&1); rc=$?
[ "$rc" -ne 0 ] && t_pass "a mid-list status of class OK does not compile" || t_fail "a mid-list status of class OK does not compile"
t_grep "the build says which row and why" 'MMD_E_INSERTED: only MMD_OK \(0\) has MMD_CLASS_OK'

cat >"$TMP/main.c" <<'EOF'
#include <stdio.h>
#include "renderer/cli/commands.h"
int main(void)
{
    int zero = 0;
    for (int s = 1; s < MMD_STATUS_COUNT; s++)
        zero += mmd_exit_code((mmd_status)s) == 0;
    printf("exits0=%d inserted=%d truncated=%d bad_magic=%d usage=%d output=%d interrupted=%d\n", zero,
           mmd_exit_code(MMD_E_INSERTED), mmd_exit_code(MMD_E_TRUNCATED), mmd_exit_code(MMD_E_BAD_MAGIC),
           mmd_exit_code(MMD_E_USAGE), mmd_exit_code(MMD_E_OUTPUT), mmd_exit_code(MMD_E_INTERRUPTED));
    return 0;
}
EOF
with_row MMD_CLASS_OUTPUT
OUT=$("$CC" "${FLAGS[@]}" -I"$TMP/MMD_CLASS_OUTPUT" -I. core/status.c renderer/cli/exit.c "$TMP/main.c" \
      -o "$TMP/guard" 2>&1 && "$TMP/guard" 2>&1)
t_grep "a mid-list status of another class compiles and exits with its class's code" \
    '^exits0=0 inserted=5 truncated=2 bad_magic=2 usage=1 output=5 interrupted=130$'

# One convention below main: no function in core/ or renderer/ reports an error into a caller's
# buffer (the last was gl's accessory pass; mmd_msgf, its helper, is gone).
OUT=$(grep -rnE 'char \*msg, size_t|\bmmd_msgf\b' core renderer 2>&1)
[ -z "$OUT" ] && t_pass "no function below main takes char *msg, size_t" \
    || { t_fail "no function below main takes char *msg, size_t"; printf '%s\n' "$OUT" | sed 's/^/#   /'; }
t_done
