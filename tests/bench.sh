#!/bin/sh
# make bench: per-résumé time, memory and size (bench.py), then shaping and
# breaking throughput on a long publication list (build/bench_wrap).
cd "$(dirname "$0")/.." || exit 1
python3 tests/bench.py || exit 1
exec build/bench_wrap
