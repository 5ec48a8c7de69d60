#!/usr/bin/env bash
# tests/cli/packages.sh - one package list (tools/packages.txt): tools/deps.sh (`make deps`)
# reads it, the Dockerfile installs through tools/deps.sh, no other file lists packages, and
# every package on it is installed here (the list the suite builds and passes with); the
# runtime libraries the farm image needs (libegl1, libstb0) come with it; the Kubernetes
# example runs that image and stitches with `mmdrender encode`. MMD_TEST_DOCKER=1 also builds
# the image and runs `mmdrender --version` in it (needs a Docker daemon and the network).
. tests/util/cli_lib.sh
L=tools/packages.txt
mapfile -t pkgs < <(sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$L")
[ ${#pkgs[@]} -ge 10 ] && t_pass "$L lists ${#pkgs[@]} packages" || t_fail "$L lists packages" "${#pkgs[*]}"
grep -q 'packages.txt' tools/deps.sh && t_pass "tools/deps.sh reads $L" || t_fail "tools/deps.sh reads $L"
# no package name written a second time: deps.sh, the Dockerfile and the farm files name none
for f in tools/deps.sh Dockerfile farm/k8s-indexed-job.yaml farm/README.md; do
    dup=""
    for p in "${pkgs[@]}"; do
        case $p in build-essential|pkg-config|ffmpeg) continue ;; esac   # also plain words in prose
        grep -qw -- "$p" "$f" && dup+=" $p"
    done
    [ -z "$dup" ] && t_pass "$f lists no package of its own" || t_fail "$f lists no package of its own" "$dup"
done
grep -qE '^COPY tools/deps\.sh tools/packages\.txt ' Dockerfile && grep -qE '^RUN bash /src/tools/deps\.sh' Dockerfile &&
    t_pass "the Dockerfile installs the list through tools/deps.sh" || t_fail "Dockerfile uses tools/deps.sh"
grep -q '^FROM debian:12$' Dockerfile && t_pass "the image is Debian 12" || t_fail "the image is Debian 12"
grep -q 'make .*install' Dockerfile && grep -q '^ENTRYPOINT \["mmdrender"\]' Dockerfile &&
    t_pass "the image installs mmdrender (make install) as its entrypoint" || t_fail "Dockerfile installs mmdrender"
# the list is the one this machine built and tests with
if command -v dpkg-query >/dev/null; then
    miss=""
    for p in "${pkgs[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || miss+=" $p"
    done
    [ -z "$miss" ] && t_pass "every listed package is installed here" || t_fail "every listed package is installed here" "$miss"
    # the runtime libraries the old Kubernetes note missed, pulled by the list's -dev packages
    for pair in libegl-dev:libegl1 libstb-dev:libstb0 libosmesa6-dev:libosmesa6; do
        dev=${pair%%:*} lib=${pair#*:}
        printf '%s\n' "${pkgs[@]}" | grep -qx "$dev" && dpkg-query -W -f='${Depends}' "$dev" 2>/dev/null | grep -qw "$lib" &&
            t_pass "runtime $lib comes with $dev" || t_fail "runtime $lib comes with $dev"
    done
else
    t_skip "listed packages installed" "no dpkg"
fi
K=farm/k8s-indexed-job.yaml
img=$(sed -n 's/^ *image: *//p' "$K" | sort -u)
[ "$(wc -l <<<"$img")" = 1 ] && grep -q "docker build -t $img \." "$K" &&
    t_pass "the Kubernetes Jobs run the image the Dockerfile builds ($img)" || t_fail "k8s image" "$img"
if command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null; then
    OUT=$(python3 - "$K" <<'PY' 2>&1
import sys, yaml
text = open(sys.argv[1]).read()
render = yaml.safe_load(text)
stitch = yaml.safe_load("\n".join(l[3:] for l in text.splitlines() if l.startswith("#S ")))
n = render["spec"]["completions"]
args = render["spec"]["template"]["spec"]["containers"][0]["args"]
assert args[args.index("--chunk") + 1] == "auto/%d" % n, args
sargs = stitch["spec"]["template"]["spec"]["containers"][0]["args"]
assert sargs[0] == "encode" and "--scene" in sargs, sargs
print("ok", n)
PY
)
    t_grep "k8s: auto/N = completions, the stitch Job runs encode" '^ok [0-9]+$'
else
    t_skip "k8s yaml parses" "no python3 yaml"
fi
if command -v shellcheck >/dev/null; then
    OUT=$(shellcheck -S warning farm/*.sh farm/*.sbatch tools/deps.sh tools/completion/mmdrender.bash 2>&1)
    [ -z "$OUT" ] && t_pass "shellcheck: farm scripts, deps.sh, bash completion" || t_fail "shellcheck" "$OUT"
fi
if [ "${MMD_TEST_DOCKER:-0}" = 1 ] && docker info >/dev/null 2>&1; then
    t_expect "docker build (Dockerfile)" 0 docker build -q -t mmdrender-test .
    t_expect "mmdrender --version in the image" 0 docker run --rm mmdrender-test --version
    t_grep "the image's Mesa" '^GL: .*Mesa'
else
    t_skip "docker build" "MMD_TEST_DOCKER=1 and a Docker daemon build the image"
fi
t_done
