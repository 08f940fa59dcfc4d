#!/bin/sh
# make bench: one résumé as a fresh process, a batch of 100 in one process on
# one core, the same batch with -j 0, -j 1 and -j 2 on every core, every
# profile (bench.py), Typst 0.14 side by side (bench_typst.py), then shaping and breaking throughput on a long
# publication list (build/bench_wrap).  A report: nothing is asserted.
# docs/performance.md explains the figures and how to profile further.
cd "$(dirname "$0")/.." || exit 1
python3 tests/bench.py || exit 1
echo
python3 tests/bench_typst.py || exit 1
echo
exec build/bench_wrap
