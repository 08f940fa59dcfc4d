#!/bin/sh
# make valgrind: run the -O2 build of cvpdf under valgrind's memcheck on every
# profile, in every layout, in batch mode (worker processes), with --merge,
# with --pdfa, --fit-pages and --explain, and on failing inputs.  Any error
# or definite/indirect leak fails the run.  Ends with "valgrind: N passed,
# M failed".
cd "$(dirname "$0")/.." || exit 1
if ! command -v valgrind >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "make valgrind needs valgrind. Install it with:" >&2
        echo "  sudo apt-get install -y valgrind" >&2
        exit 1
    fi
    apt-get install -y -q --no-install-recommends valgrind || exit 1
fi
tmp=$(mktemp -d /tmp/cvpdf-vg-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
VG="valgrind -q --suppressions=tests/valgrind.supp --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite,indirect --child-silent-after-fork=no"

# run NAME EXPECTED_STATUS cvpdf-args...
run() {
    name=$1 want=$2
    shift 2
    # shellcheck disable=SC2086
    $VG ./cvpdf -q "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want" ] && ! grep -q '^==[0-9]*==' "$tmp/err"; then
        pass=$((pass + 1))
        echo "ok $name"
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $rc (want $want)"
        grep '^==[0-9]*==' "$tmp/err" | head -n 30
    fi
}

zh=layouts/zh.yaml
for p in profiles/*.yaml; do
    n=$(basename "$p" .yaml)
    case $n in *-zh) lay=$zh ;; *) lay=layouts/onecolumn.yaml ;; esac
    run "$n" 0 -l "$lay" -o "$tmp/$n.pdf" "$p"
    run "$n sidebar --pdfa --explain" 0 -l layouts/sidebar.yaml --pdfa --explain \
        -o "$tmp/$n-sb.pdf" "$p"
    # Fit to one page fewer than compact gives, or to as many when it has one.
    pages=$(./cvpdf -q --dump -l layouts/compact.yaml "$p" | grep -c '^page ')
    fit=$((pages > 1 ? pages - 1 : 1))
    ./cvpdf -q --fit-pages "$fit" -l layouts/compact.yaml --dump "$p" >/dev/null 2>&1 ||
        fit=$pages
    run "$n compact --fit-pages $fit" 0 -l layouts/compact.yaml --fit-pages "$fit" \
        -o "$tmp/$n-c.pdf" "$p"
done
# A photo: the test images of tests/layouts.py.
mkdir -p "$tmp/photo"
cp tests/data/photo.png tests/data/photo.jpg "$tmp/photo/"
sed 's/^cv:$/cv:\n  photo: photo.png/' profiles/li.yaml >"$tmp/photo/png.yaml"
sed 's/^cv:$/cv:\n  photo: photo.jpg/' profiles/li.yaml >"$tmp/photo/jpg.yaml"
run "photo png" 0 -o "$tmp/photo/" "$tmp/photo/png.yaml" -j 0
run "photo jpg sidebar" 0 -l layouts/sidebar.yaml -o "$tmp/photo/j.pdf" "$tmp/photo/jpg.yaml"
# Batch mode: every profile, in worker processes and in this process.
run "batch -j 2" 0 -j 2 -o "$tmp/batch/" profiles/*.yaml
run "batch -j 0" 0 -j 0 -o "$tmp/batch0/" profiles/*.yaml
# A CV book of the whole lab.
run "--merge" 0 --merge "$tmp/lab.pdf" profiles/*.yaml
run "--merge --pdfa" 0 --pdfa --merge "$tmp/lab-a.pdf" profiles/*.yaml
# Failing inputs: a broken profile in a batch and in a book, a missing
# file, a fit that cannot be met.
printf 'cv:\n  name: [unclosed\n' >"$tmp/broken.yaml"
run "batch with a broken profile" 1 -j 2 -o "$tmp/b2/" profiles/li.yaml "$tmp/broken.yaml"
run "book with a broken profile" 1 --merge "$tmp/lab2.pdf" profiles/li.yaml "$tmp/broken.yaml"
run "missing profile" 1 -o "$tmp/m.pdf" "$tmp/missing.yaml"
run "fit refused" 1 --fit-pages 1 -o "$tmp/f.pdf" profiles/fang.yaml
# Publications from a .bib (issue 19): every case, grouped, imported, broken.
run "bib cases" 0 --timeout 0 -o "$tmp/bib.pdf" tests/data/bib/p.yaml
printf 'cv:\n  name: Jiarui Fang\n  sections:\n    pubs:\n      bib: %s\n      group_by: type\n      names: last-initials\n' \
    "$(pwd)/tests/data/bib/cases.bib" >"$tmp/bibg.yaml"
run "bib grouped" 0 --timeout 0 -o "$tmp/bibg.pdf" "$tmp/bibg.yaml"
run "bib import" 0 import tests/data/bib/cases.bib
printf '@s{r,r}@s{{%%n}\n@article{k, title = {50%% %%s}, author = {, A and B,,C}, journal = UNDEF}\n' \
    >"$tmp/broken.bib"
run "bib import broken" 0 import "$tmp/broken.bib"
# The web formats (issue 29): an HTML page with a photo, in the sidebar
# layout and right to left; Markdown; a lab's website with a broken profile.
run "html photo sidebar" 0 -l layouts/sidebar.yaml -o "$tmp/photo/j.html" "$tmp/photo/jpg.yaml"
run "html rtl" 0 -o "$tmp/he.html" profiles/levi-he.yaml
run "html cjk" 0 -l layouts/zh.yaml -o "$tmp/zh.html" profiles/fang-zh.yaml
run "markdown" 0 -o "$tmp/fang.md" profiles/fang.yaml
printf 'lab:\n  name: PACMAN Lab\n  address: Beijing\n' >"$tmp/lab.yaml"
run "--site with a broken profile" 1 --site "$tmp/site/" --defaults "$tmp/lab.yaml" \
    profiles/he.yaml profiles/li.yaml "$tmp/broken.yaml"
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
