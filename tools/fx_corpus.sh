#!/usr/bin/env bash
# tools/fx_corpus.sh DIR [BUILD] - how many MikuMikuEffect files under DIR parse and how
# many of their passes translate and link here (issue 27's measure, docs/effects.md
# "Held-out corpus"): `mmdrender effect --json` on every .fx below DIR (an .fxsub is
# compiled through the .fx that includes it), then the rates and the failures grouped
# by their first error (the place and quoted names taken out), most common first.
# FX_CORPUS_LIST=1 also lists each failing file or pass with its error.
set -u
dir=${1:?usage: tools/fx_corpus.sh DIR [BUILD]}
build=${2:-build}
MMD=$build/mmdrender
[ -x "$MMD" ] || { echo "fx_corpus: no $MMD (make first)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
while IFS= read -r -d '' f; do
    n=$((n + 1))
    printf '%s\n' "$f" >"$tmp/$n.path"
    timeout 300 "$MMD" effect "$f" --json >"$tmp/$n.json" 2>"$tmp/$n.err"
    echo $? >"$tmp/$n.rc"
done < <(find "$dir" -type f -iname '*.fx' -print0 | sort -z)
python3 - "$tmp" "$n" <<'EOF'
import json, os, re, sys
from collections import Counter
tmp, n = sys.argv[1], int(sys.argv[2])
list_all = os.environ.get("FX_CORPUS_LIST") == "1"
def why(msg):
    msg = re.sub(r"^.*?:\d+: ", "", msg.strip().splitlines()[0] if msg.strip() else "(no message)")
    msg = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'X'", msg)
    msg = re.sub(r"\b\d+(\(\d+\))?", "N", msg)
    msg = re.sub(r"\bpass \S+ sets", "pass X sets", msg)
    return msg[:110]
parsed = passes = translated = linked = 0
fails, listing = Counter(), []
for i in range(1, n + 1):
    path = open(f"{tmp}/{i}.path").read().strip()
    rc = int(open(f"{tmp}/{i}.rc").read().strip() or 2)
    try:
        doc = json.load(open(f"{tmp}/{i}.json")) if rc == 0 else None
    except ValueError:
        doc = None
    if doc is None:
        err = open(f"{tmp}/{i}.err", errors="replace").read().replace("mmdrender effect: ", "")
        fails["parse: " + why(err)] += 1
        listing.append(f"{path}: does not parse: {err.strip()[:300]}")
        continue
    parsed += 1
    for t in doc.get("techniques", []):
        for p in t.get("passes", []):
            passes += 1
            e = p.get("error") or ""
            if p.get("ok"):
                translated += 1; linked += 1
                continue
            if "GLSL from the translator" in e:
                translated += 1
                kind = "link"
            elif "translates; not linked" in e:
                translated += 1
                continue
            else:
                kind = "translate"
            fails[f"{kind}: {why(e)}"] += 1
            listing.append(f"{path}: pass {t.get('name')}/{p.get('name')}: {e[:300]}")
pct = lambda a, b: 100.0 * a / b if b else 0.0
print(f"fx corpus: {parsed} of {n} files parse ({pct(parsed, n):.1f} %); "
      f"of {passes} passes {translated} translate ({pct(translated, passes):.1f} %), "
      f"{linked} link ({pct(linked, passes):.1f} %)")
for msg, k in fails.most_common():
    print(f"{k:5d}  {msg}")
if list_all:
    print("\n".join(listing))
EOF
