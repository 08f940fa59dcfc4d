#!/bin/sh
# Run every test: unit tests (ASan+UBSan builds), spec tests on the --dump
# text, end-to-end tests on real PDFs, typography tests (PDFs read back with
# pdfminer and rasterised).  Ends with "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
pass=0 fail=0
for t in build/san/test_*; do
    [ -x "$t" ] || continue
    out=$("$t" 2>&1); rc=$?
    line=$(printf '%s\n' "$out" | tail -n 1)
    p=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed/\1/p')
    f=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed/\2/p')
    if [ -z "$p" ]; then p=0; f=1; fi
    if [ $rc -ne 0 ] && [ "$f" = 0 ]; then f=1; fi
    [ "$f" != 0 ] && printf '%s\n' "$out" | grep -v '^$' | tail -n 20
    echo "$line"
    pass=$((pass + p)); fail=$((fail + f))
done
# Python suites on the sanitizer build: e2e.py (spec and end-to-end tests)
# typo.py (typography: PDFs read back with pdfminer, rasterised),
# layouts.py (every layout, furniture, fit-to-pages, --explain, the photo),
# pages.py (page-breaking rules on generated profiles), pdfmeta.py (document
# information, bookmarks, links, page labels, reproducible bytes),
# readers.py (the text read back exactly by pdftotext, mutool, pdfminer and
# PDFBox; PDF/A-1b by PDFBox Preflight), batch.py (worker processes, --merge,
# --defaults), badinput.py (every kind of broken input: one clear error, exit
# 1, the previous PDF untouched), patho/run.py (pathological but valid
# inputs, each within a time limit).
for suite in tests/e2e.py tests/typo.py tests/layouts.py tests/pages.py tests/pdfmeta.py \
        tests/readers.py tests/batch.py tests/badinput.py tests/patho/run.py; do
    out=$(python3 "$suite" build/san/cvpdf 2>&1); rc=$?
    printf '%s\n' "$out" | grep -v '^ok '
    line=$(printf '%s\n' "$out" | tail -n 1)
    p=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed/\1/p')
    f=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed/\2/p')
    if [ -z "$p" ]; then p=0; f=1; fi
    if [ $rc -ne 0 ] && [ "$f" = 0 ]; then f=1; fi
    pass=$((pass + p)); fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
