#!/bin/sh
# same_output.sh - prove that a change of structure changes no output.
#
#   sh tests/same_output.sh [REV]        (default REV: HEAD)
#
# Builds REV in a temporary git worktree, builds the working tree, and runs
# both binaries on the same inputs: every profile in every layout, as a PDF,
# as a PDF/A, as --dump and as --dump=glyphs; then --fit-pages, --explain,
# --merge, --defaults, a batch, a photo, and a few failing inputs (their
# messages and exit status).  Every output file, stdout, stderr and exit
# status must be byte-identical.  Prints one line per difference and ends
# with "N passed, N failed".  Run it before a refactoring lands.
cd "$(dirname "$0")/.." || exit 1
rev=${1:-HEAD}
top=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cvpdf-same.XXXXXX") || exit 1
trap 'git worktree remove --force "$tmp/old" >/dev/null 2>&1; rm -rf "$tmp"' EXIT INT TERM HUP

git worktree add --detach "$tmp/old" "$rev" >/dev/null 2>&1 || {
    echo "same_output: cannot check out $rev" >&2; exit 2; }
make -s -C "$tmp/old" cvpdf >/dev/null || { echo "same_output: $rev does not build" >&2; exit 2; }
make -s cvpdf >/dev/null || { echo "same_output: the working tree does not build" >&2; exit 2; }

export SOURCE_DATE_EPOCH=1700000000
# A profile with a photo, and a defaults file, made once for both runs.
mkdir -p "$tmp/in"
cp tests/data/photo.png "$tmp/in/photo.png"
sed 's/^cv:$/cv:\n  photo: photo.png/' profiles/he.yaml > "$tmp/in/withphoto.yaml"
printf 'cv:\n  location: Shenzhen\nlocale:\n  language: en\n' > "$tmp/in/defaults.yaml"
printf 'cv:\n  name: X\n  emial: x@y\n' > "$tmp/in/bad.yaml"
# Scripts no lab profile has: Arabic with harakat, Persian, Devanagari
# (HarfBuzz's glyphs, carried by the display list as cv_cluster); the
# profiles tests/scripts.py reads too.
cp tests/data/scripts/ar.yaml tests/data/scripts/fa.yaml tests/data/scripts/hi.yaml "$tmp/in/"

# run NAME ARGS...: run both binaries with ARGS, the output path written as
# @OUT@ (a file name) or @DIR@ (a directory), from the repository's top.
pass=0 fail=0
run() {
    name=$1; shift
    for side in old new; do
        if [ $side = old ]; then bin="$tmp/old/cvpdf"; else bin="$top/cvpdf"; fi
        d="$tmp/$side/$name"
        mkdir -p "$d"
        set --
        for a in $args; do
            case $a in
                @OUT@) a="$d/out.pdf" ;;
                @DIR@) a="$d/dir/" ;;
                # Each side reads its own tree's profiles (a profile moved
                # to a .bib must still give what its YAML gave).
                profiles/*) if [ $side = old ]; then a="$tmp/old/$a"; else a="$top/$a"; fi ;;
            esac
            set -- "$@" "$a"
        done
        "$bin" "$@" > "$d.stdout" 2> "$d.stderr"
        echo $? > "$d.rc"
        # Paths differ between the two sides: compare messages without them.
        sed -i "s#$d#OUT#g; s#$tmp/old#TOP#g; s#$top#TOP#g" "$d.stdout" "$d.stderr"
    done
    if diff -r "$tmp/old/$name" "$tmp/new/$name" >/dev/null 2>&1 &&
       cmp -s "$tmp/old/$name.stdout" "$tmp/new/$name.stdout" &&
       cmp -s "$tmp/old/$name.stderr" "$tmp/new/$name.stderr" &&
       cmp -s "$tmp/old/$name.rc" "$tmp/new/$name.rc"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "DIFFERENT: $name: cvpdf $args"
    fi
}

n=0
for layout in layouts/*.yaml; do
    for profile in profiles/*.yaml; do
        n=$((n + 1)); l=$(basename "$layout" .yaml); p=$(basename "$profile" .yaml)
        args="$profile -l $layout -o @OUT@"; run "$l-$p"
        args="$profile -l $layout --pdfa -o @OUT@"; run "$l-$p-pdfa"
        args="$profile -l $layout --dump"; run "$l-$p-dump"
        args="$profile -l $layout --dump=glyphs"; run "$l-$p-glyphs"
    done
done
for p in ar fa hi; do
    args="$tmp/in/$p.yaml -o @OUT@"; run "script-$p"
    args="$tmp/in/$p.yaml --pdfa -o @OUT@"; run "script-$p-pdfa"
    args="$tmp/in/$p.yaml --dump=glyphs"; run "script-$p-glyphs"
    args="$tmp/in/$p.yaml -l layouts/sidebar.yaml -o @OUT@"; run "script-$p-sidebar"
done
args="profiles/fang.yaml --fit-pages 3 --explain -o @OUT@"; run fit3
args="profiles/fang.yaml --fit-pages 1 -o @OUT@"; run fit1
args="profiles/he.yaml -l layouts/sidebar.yaml --explain --dump"; run explain
args="--merge @OUT@ profiles/he.yaml profiles/li.yaml profiles/fang-zh.yaml"; run merge
args="--defaults $tmp/in/defaults.yaml -o @DIR@ profiles/he.yaml profiles/li.yaml"; run defaults
args="-j 2 -o @DIR@ profiles/he.yaml profiles/li.yaml profiles/fang.yaml $tmp/in/bad.yaml"; run batch
args="-j 0 -l layouts/compact.yaml -o @DIR@ profiles/he.yaml profiles/chaoyang-he.yaml"; run batch0
args="$tmp/in/withphoto.yaml -l layouts/sidebar.yaml -o @OUT@"; run photo
args="$tmp/in/withphoto.yaml --pdfa --date 2024-03-01 -o @OUT@"; run photo-pdfa
args="$tmp/in/bad.yaml -o @OUT@"; run bad
args="profiles/he.yaml --strict -l layouts/zh.yaml -o @OUT@"; run strict
args="--help"; run help
echo "same_output: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
