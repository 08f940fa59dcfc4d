#!/bin/sh
# Run the tests: unit tests (ASan+UBSan builds), spec tests on the --dump
# text, end-to-end tests on real PDFs, typography tests (PDFs read back with
# pdfminer and rasterised).  Ends with "N passed, N failed".
#
#   sh tests/run.sh [-k PATTERN] [NAME...]
#
# Without NAME, everything.  A NAME is a unit test (kp runs build/san/test_kp,
# from tests/unit/test_kp.c; regress replays tests/regress/), a Python suite
# (pages runs tests/pages.py; patho runs tests/patho/run.py), or `unit` for
# every unit test.  -k PATTERN (make check K=PATTERN) runs only the tests
# whose name matches it: TEST_FILTER for the unit tests (harness.h), -k for
# the suites (testlib.py).  make check T=NAME K=PATTERN builds what the
# names need and calls this.
cd "$(dirname "$0")/.." || exit 1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Python suites on the sanitizer build: e2e.py (spec and end-to-end tests)
# typo.py (typography: PDFs read back with pdfminer, rasterised),
# layouts.py (every layout, furniture, fit-to-pages, --explain, the photo),
# pages.py (page-breaking rules on generated profiles), pdfmeta.py (document
# information, bookmarks, links, page labels, reproducible bytes),
# readers.py (the text read back exactly by pdftotext, mutool, pdfminer and
# PDFBox; PDF/A-1b by PDFBox Preflight), tagged.py (issue 18: the structure tree's
# reading order, every run tagged or an artifact, PDF/UA-1 rules, Preflight), batch.py (worker processes, --merge,
# --defaults), badinput.py (every kind of broken input: one clear error, exit
# 1, the previous PDF untouched), patho/run.py (pathological but valid
# inputs, each within a time limit), safety.py (issue 13: no input, device
# or symlink written over, nothing left when killed, modes kept, clean
# messages; as root, as nobody and, for /dev, in a private mount namespace),
# bibtex.py (issue 19: publications from a .bib, read back against
# python3-bibtexparser and pdftotext).
# newuser.py (issue 17: cvpdf new, layouts by name, the JSON Schemas against
# the loaders and python3-jsonschema, man pages, completion, make install
# into a DESTDIR, the messages a first résumé meets).
# cjkpdf.py (Noto CJK embedded with CFF outlines, regional faces, punctuation
# squeezed and rasterised, the gap between Chinese and Latin read back).
# scripts.py (issue 15: the locale catalogue, right-to-left résumés,
# hyphenation per language, the script profiles).
# formats.py (issue 17: PNG and SVG pages against pdftoppm and pdftocairo,
# names and usage errors, page sets), watching.py (--watch: edits, saves by
# rename, errors, the layout's base, the defaults, Ctrl-C).
# rendercv.py (issue 14: RenderCV themes and design options, JSON Resume),
# rcvfonts.py (issue 14: a family per part, the themes' faces, small capitals,
# bold headline and connections, custom connections' icons).
# arch.py (issue 24: the module graph from the real #includes: no circle,
# docs/architecture.md's reads column, back ends off the schema).
# rcv_accept.py (issue 14: RenderCV and JSON Resume files accepted and
# refused as RenderCV does, every word shown; the look-alike's pages per theme).
# phone_module.py (the release binary's dlopen of the phone module; a
# missing or broken module is an error naming what to install).
# woff2_module.py (the release binary's dlopen of the WOFF2 module; without
# it an HTML page is written without its faces, with a warning).
# libs.py (the release binary's dlopen of the system libraries only some runs
# need: not linked, opened when needed, a missing one named by its package).
# deb.py (issue 30: make deb with debhelper and lintian, the package's
# files, the packaged binary extracted with dpkg-deb -x).
# typo3.py (issue 27: justified lines, runts, hyphenation points, CJK
# punctuation, the sidebar, last pages, bullets: measured geometry).
# md.py (issue 29: -o cv.md read back by cmark: every word of the PDF, the
# sections' order, escapes, links, --watch), site.py (issue 29: --site DIR/:
# the lab page's cards, links, a broken profile, foreign files, tidy).
# htmlpage.py (issue 29: -o cv.html read by tidy, headless chromium and axe-core:
# structure, JSON-LD, every word, 375 px, printing, safety, --watch).
# release.py (./cvpdf, the -O2 binary a user runs, through e2e, rcv_accept,
# rendercv, layouts, scripts, typo and cjkpdf: a bug only the optimiser
# shows passes on the sanitizer build).
SUITES="arch e2e typo typo3 layouts pages pdfmeta readers tagged batch badinput patho safety bibtex newuser formats watching cjkpdf scripts rendercv rcvfonts rcv_accept phone_module woff2_module libs deb md site htmlpage release"

pattern=""
if [ "${1:-}" = -k ]; then
    if [ $# -lt 2 ]; then
        echo "usage: sh tests/run.sh [-k PATTERN] [NAME...]" >&2
        exit 2
    fi
    pattern=$2
    shift 2
fi
unset TEST_FILTER
[ -n "$pattern" ] && export TEST_FILTER="$pattern"

suite_file() {
    case $1 in
        patho) echo tests/patho/run.py ;;
        *) echo "tests/$1.py" ;;
    esac
}

# What to run: build/san/test_* binaries, then suite files.
units="" suites=""
if [ $# -eq 0 ]; then
    units=$(ls build/san/test_* 2>/dev/null)
    for s in $SUITES; do suites="$suites $(suite_file "$s")"; done
fi
for name in "$@"; do
    name=${name#test_}
    if [ "$name" = unit ]; then
        units="$units $(ls build/san/test_* 2>/dev/null)"
    elif [ -f "tests/unit/test_$name.c" ] || [ "$name" = regress ]; then
        units="$units build/san/test_$name"
        # A suite of the same name (md: md.c's unit test and tests/md.py) runs too.
        case " $SUITES " in *" $name "*) suites="$suites $(suite_file "$name")" ;; esac
    elif case " $SUITES " in *" $name "*) true ;; *) false ;; esac; then
        case " $suites " in
            *" $(suite_file "$name") "*) ;;
            *) suites="$suites $(suite_file "$name")" ;;
        esac
    else
        echo "run.sh: no test named '$name'." >&2
        known=$(ls tests/unit/test_*.c | sed 's|tests/unit/test_||; s|\.c$||' | tr '\n' ' ')
        echo "  unit tests: ${known}regress unit" >&2
        echo "  suites: $SUITES" >&2
        exit 2
    fi
done

pass=0 fail=0
# The last line of a test's output, "NAME: N passed, M failed", added to
# the totals; a test that does not end so, or exits non-zero with nothing
# failed, counts one failure.
tally() {
    line=$(printf '%s\n' "$1" | tail -n 1)
    p=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed/\1/p')
    f=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed/\2/p')
    if [ -z "$p" ]; then p=0; f=1; fi
    if [ "$2" -ne 0 ] && [ "$f" = 0 ]; then f=1; fi
    pass=$((pass + p)); fail=$((fail + f))
}

# The suites run JOBS at a time (CHECK_JOBS, default: the number of
# cores), the longest first; each one's output is kept in a file and
# printed whole, in the order of $suites, as soon as it and those before it
# have ended.  (Started in the background, a suite inherits SIGINT ignored:
# testlib.py takes it back.)
jobs=${CHECK_JOBS:-$(nproc 2>/dev/null || echo 2)}
outdir=$(mktemp -d "${TMPDIR:-/tmp}/cvpdf-check-XXXXXX") || exit 1
pool=""
cleanup() {
    [ -n "$pool" ] && kill "$pool" 2>/dev/null
    rm -rf "$outdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Longest first (measured), then the rest in their order.
LONGEST="htmlpage tagged pages patho safety formats readers bibtex badinput batch layouts scripts"
order=""
for s in $LONGEST; do
    sf=$(suite_file "$s")
    case " $suites " in *" $sf "*) order="$order $sf" ;; esac
done
for sf in $suites; do
    case " $order " in *" $sf "*) ;; *) order="$order $sf" ;; esac
done
# Suite number N (its place in $suites) writes its output to $outdir/N.out
# and then its exit status to $outdir/N.rc.
place() {
    i=0
    for sf in $suites; do
        i=$((i + 1))
        [ "$sf" = "$1" ] && { echo "$i"; return; }
    done
}
if [ -n "$suites" ]; then
    for sf in $order; do
        echo "$sf $outdir/$(place "$sf")"
    done | xargs -P "$jobs" -n 2 sh -c \
        'python3 "$1" build/san/cvpdf > "$2.out" 2>&1; echo $? > "$2.rc.tmp"; mv "$2.rc.tmp" "$2.rc"' \
        run-suite &
    pool=$!
fi

for t in $units; do
    if [ ! -x "$t" ]; then
        echo "$t: not built (make $t)"
        fail=$((fail + 1))
        continue
    fi
    out=$("$t" 2>&1); rc=$?
    tally "$out" $rc
    [ "$f" != 0 ] && printf '%s\n' "$out" | grep -v '^$' | tail -n 20
    [ -n "$pattern" ] && printf '%s\n' "$out" | grep '^no test of '
    printf '%s\n' "$out" | tail -n 1
done
n=0
for suite in $suites; do
    n=$((n + 1))
    while [ ! -f "$outdir/$n.rc" ]; do
        if ! kill -0 "$pool" 2>/dev/null && [ ! -f "$outdir/$n.rc" ]; then
            echo "$suite: did not run" > "$outdir/$n.out"
            echo 1 > "$outdir/$n.rc"
            break
        fi
        sleep 1
    done
    out=$(cat "$outdir/$n.out"); rc=$(cat "$outdir/$n.rc")
    printf '%s\n' "$out" | grep -v '^ok '
    tally "$out" "$rc"
done
wait
if [ -n "$pattern" ] && [ $((pass + fail)) -eq 0 ]; then
    echo "nothing matches '$pattern'"
    fail=1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
