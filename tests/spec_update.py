#!/usr/bin/env python3
"""Rewrite the expected dumps in tests/spec/*.txt with what cvpdf makes now.

Usage: tests/spec_update.py [CVPDF_BINARY] [SPEC_FILE...]

For a deliberate change of layout only: read `git diff tests/spec` after
running it, line by line, before committing.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "cvpdf"))
SPEC = os.path.join(ROOT, "tests", "spec")
files = sys.argv[2:] or sorted(os.path.join(SPEC, f) for f in os.listdir(SPEC)
                               if f.endswith(".txt"))
# NAME.txt is set with NAME.layout.yaml where there is one, else layout.yaml.
with tempfile.TemporaryDirectory() as tmp:
    for path in files:
        text = open(path, encoding="utf-8").read()
        own = path[:-4] + ".layout.yaml"
        layout = own if os.path.exists(own) else os.path.join(SPEC, "layout.yaml")
        head, *chunks = re.split(r"^## ", text, flags=re.M)
        out = [head]
        for chunk in chunks:
            title, _, body = chunk.partition("\n")
            profile, sep, expected = body.partition("\n.\n")
            if not sep:
                sys.exit("%s: '## %s' has no '.' line" % (path, title))
            yml = os.path.join(tmp, "spec.yaml")
            open(yml, "w", encoding="utf-8").write(profile)
            p = subprocess.run([BIN, "--dump", "-q", yml, "-l", layout],
                               capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit("%s: '## %s': exit %d: %s" % (path, title, p.returncode, p.stderr))
            trail = expected[len(expected.rstrip("\n")):]
            out.append("## %s\n%s\n.\n%s%s" % (title, profile, p.stdout.strip("\n"), trail or "\n"))
        open(path, "w", encoding="utf-8").write("".join(out))
