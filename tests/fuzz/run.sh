#!/bin/sh
# Run the libFuzzer targets (make fuzz): tests/fuzz/run.sh SECONDS TARGET...
#
# Seed corpora are made afresh in build/fuzz/corpus-<target> from the
# profiles, layouts and spec examples (never committed); what the fuzzer
# finds beyond them accumulates in build/fuzz/work-<target> from run to run.
# A crash, leak, sanitizer report, timeout or out-of-memory stops that
# target, leaves the input in build/fuzz/artifacts/<target>/ and makes the
# run fail; once fixed, the input goes into tests/regress/<target>/ (see
# tests/regress/README.md).  Ends with "fuzz: N targets clean, M failed".
cd "$(dirname "$0")/../.." || exit 1
secs=${1:-60}
shift
[ $# -gt 0 ] || set -- profile layout markup render font bib
B=build/fuzz

# ---- Seed corpora ---------------------------------------------------------
# The profiles of tests/spec/*.txt: the text between a "## title" line and
# the "." line that ends each example's input.
spec_profiles() {   # DIR PREFIX
    for f in tests/spec/*.txt; do
        awk -v dir="$1" -v pre="$2" -v base="$(basename "$f" .txt)" '
            /^## / { n++; out = sprintf("%s/spec-%s-%03d.yaml", dir, base, n);
                     printf "%s", pre > out; body = 1; next }
            /^\.$/ { if (body) close(out); body = 0; next }
            body   { print > out }' "$f"
    done
}
corpus() {          # TARGET: make build/fuzz/corpus-TARGET afresh
    rm -rf $B/corpus-$1
    mkdir -p $B/corpus-$1
    case $1 in
    profile)
        cp profiles/*.yaml $B/corpus-profile/
        spec_profiles $B/corpus-profile "" ;;
    layout)
        cp layouts/*.yaml tests/spec/*.yaml $B/corpus-layout/ ;;
    markup)
        # The seeds of tests/fuzz/markup.txt, and every list item and quoted
        # string of the profiles, one per file.
        { grep -v '^#' tests/fuzz/markup.txt
          sed -n 's/^ *- *\(.*\)$/\1/p; s/^ *[a-z_]*: *"\(.*\)"$/\1/p' profiles/*.yaml; } |
        { i=0
          while IFS= read -r line; do
              i=$((i + 1))
              printf '%s' "$line" > $B/corpus-markup/seed-$i
          done; } ;;
    font)
        # Small fonts: each face of fonts/ cut to a few glyphs by
        # hb-subset (HarfBuzz's tool, libharfbuzz-bin), TrueType and CFF,
        # and the first bytes of a collection.
        for f in fonts/*.ttf fonts/*.otf; do
            hb-subset --text="Ab1" --output-file=$B/corpus-font/$(basename "$f") "$f" \
                2>/dev/null || true
        done
        head -c 2048 fonts/wqy-microhei.ttc > $B/corpus-font/ttc-head ;;
    bib)
        # The .bib files of the profiles and the tests, each as a file (a
        # first byte of 0) and, cut at each entry's '@', as field values
        # (a first byte of 1: what follows is TeX).
        i=0
        for f in profiles/*.bib tests/data/bib/*.bib; do
            i=$((i + 1))
            { printf '\000'; cat "$f"; } > $B/corpus-bib/file-$i
        done
        sed -n 's/^ *[a-z]* *= *[{"]\(.*\)[}"],\{0,1\} *$/\1/p' profiles/*.bib tests/data/bib/*.bib |
        { i=0
          while IFS= read -r line; do
              i=$((i + 1))
              printf '\001%s' "$line" > $B/corpus-bib/tex-$i
          done; } ;;
    render)
        # Every profile in every layout, and a few runs with options.
        for p in profiles/*.yaml; do
            n=$B/corpus-render/$(basename "$p" .yaml)
            for l in onecolumn onecolumn-letter compact sidebar zh; do
                { printf '# fuzz: layout=%s\n' $l; cat "$p"; } > $n-$l
            done
            { printf '# fuzz: fit=1 explain glyphs\n'; cat "$p"; } > $n-fit1
            { printf '# fuzz: layout=sidebar fit=2 strict date=2024-05-01\n'; cat "$p"; } \
                > $n-sidebar-fit2
        done
        spec_profiles $B/corpus-render "# fuzz: layout=spec glyphs
" ;;
    esac
}

# ---- Runs -----------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The libraries' own leaks that make check suppresses (tests/lsan.supp).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
clean=0 failed=0
for t in "$@"; do
    case $t in
        markup) max_len=4096 timeout=10 dict=tests/fuzz/markup.dict ;;
        bib)    max_len=32768 timeout=10 dict=tests/fuzz/bib.dict ;;
        font)   max_len=65536 timeout=10 dict=tests/fuzz/font.dict ;;
        layout) max_len=8192 timeout=20 dict=tests/fuzz/layout.dict ;;
        render) max_len=32768 timeout=30 dict=tests/fuzz/profile.dict ;;
        *)      max_len=32768 timeout=10 dict=tests/fuzz/profile.dict ;;
    esac
    corpus $t
    mkdir -p $B/work-$t $B/artifacts/$t
    echo "fuzz: $t for ${secs}s (log in $B/$t.log)"
    $B/fuzz_$t -max_total_time="$secs" -max_len=$max_len -timeout=$timeout \
        -rss_limit_mb=2048 -dict=$dict -close_fd_mask=3 -print_final_stats=1 \
        -artifact_prefix=$B/artifacts/$t/ $B/work-$t $B/corpus-$t > $B/$t.log 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' $B/$t.log | tail -n 1)
    if [ $rc -eq 0 ]; then
        echo "fuzz: $t: ${runs:-?} inputs, no crash"
        clean=$((clean + 1))
    else
        grep -E '^==[0-9]+== ?ERROR|^SUMMARY|runtime error|Test unit written|^fuzz_markup:' \
            $B/$t.log | sort -u | head -n 20
        echo "fuzz: $t: FAILED after ${runs:-?} inputs; replay with: $B/fuzz_$t $B/artifacts/$t/<file>"
        failed=$((failed + 1))
    fi
done
echo "fuzz: $clean targets clean, $failed failed"
[ $failed -eq 0 ]
