#!/bin/sh
# Install the Debian packages cvpdf needs, in two weights:
#
#   sh tests/deps.sh        what building and rendering need (make, make demo,
#                           make install): the compiler, the libraries, the
#                           hyphenation patterns and the fonts a profile or a
#                           RenderCV theme may ask for
#   sh tests/deps.sh check  that and what the tests need (make check): the PDF
#                           readers (poppler-utils, qpdf, MuPDF, pdfminer, PDFBox
#                           with a JDK), Python's YAML, JSON Schema and BibTeX
#                           parsers, groff and man, cmark, tidy and chromium
#                           (tests/md.py, tests/site.py, tests/htmlpage.py),
#                           zsh and bash-completion (the
#                           completion tests), and debhelper and lintian
#                           (tests/deb.py builds the package); and, from npm
#                           into build/npm, yaml-language-server and axe-core
#   sh tests/deps.sh fuzz   that and what make fuzz needs (clang, libFuzzer)
#   sh tests/deps.sh bench  what make check needs, and Typst 0.14 from npm
#                           (typst-ts-node-compiler 0.7.0) for make bench's
#                           side by side (tests/bench_typst.py)
#   sh tests/deps.sh deb    what building and rendering need, and what make deb
#                           needs (debhelper, lintian)
#
# As root it installs what is missing; otherwise it prints the exact
# apt-get command and exits 1.
set -e
# Building and rendering.
PKGS="gcc g++ make pkg-config libhpdf-dev libfreetype-dev libharfbuzz-dev libyaml-dev
libunibreak-dev libfontconfig-dev libhyphen-dev libbtparse-dev libpng-dev libjpeg-dev
liblcms2-dev libpoppler-glib-dev libcairo2-dev zlib1g-dev libicu-dev libfribidi-dev libphonenumber-dev
libjson-c-dev libwoff-dev
hyphen-en-us hyphen-de hyphen-fr hyphen-es hyphen-it hyphen-nl hyphen-pt-pt hyphen-ru
fonts-noto-core fonts-noto-cjk fonts-dejavu-core fonts-lato
fonts-sil-gentiumplus fonts-cmu fonts-lmodern fonts-ebgaramond fonts-font-awesome
fonts-fork-awesome"
# The tests only (`make check`): some 350 MB, a JDK for PDFBox the most of it.
CHECK_PKGS="poppler-utils qpdf libharfbuzz-bin mupdf-tools fonts-dejavu-extra
python3 python3-pdfminer python3-bibtexparser python3-jsonschema python3-yaml python3-fonttools
groff-base man-db zsh bash-completion
default-jre-headless default-jdk-headless libpdfbox2-java libactivation-java libjaxb-api-java
debhelper dpkg-dev lintian
cmark tidy chromium python3-brotli"
# `make fuzz` only: clang and its libFuzzer runtime (libclang_rt.fuzzer, in
# libclang-rt-14-dev on Debian 12).
FUZZ_PKGS="clang libclang-rt-dev"
# `make deb` only.
DEB_PKGS="debhelper dpkg-dev lintian"
# npm, for the test tools only npm has (below): Debian's, unless an npm is
# there already (Node.js from elsewhere brings its own, which Debian's would
# conflict with).
command -v npm >/dev/null 2>&1 || CHECK_PKGS="$CHECK_PKGS npm"
case "${1:-}" in
    "") ;;
    check) PKGS="$PKGS $CHECK_PKGS" ;;
    fuzz) PKGS="$PKGS $CHECK_PKGS $FUZZ_PKGS" ;;
    bench) PKGS="$PKGS $CHECK_PKGS" ;;
    deb) PKGS="$PKGS $DEB_PKGS" ;;
    *) echo "usage: sh tests/deps.sh [check|fuzz|bench|deb]" >&2; exit 2 ;;
esac
# A command in place of dpkg-query, and of id -u (tests/newuser.py).
DPKG_QUERY=${CVPDF_DPKG_QUERY:-dpkg-query}
UID_NOW=${CVPDF_DEPS_UID:-$(id -u)}
missing=""
for p in $PKGS; do
    $DPKG_QUERY -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$UID_NOW" -ne 0 ]; then
        echo "cvpdf needs these Debian packages:$missing" >&2
        echo "Install them with:" >&2
        echo "  sudo apt-get install -y --no-install-recommends$missing" >&2
        exit 1
    fi
    echo "Installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q || true
    apt-get install -y -q --no-install-recommends $missing
fi
# The tests' tools that only npm has, at pinned versions, in the build
# directory (build/npm, never global; tests/testlib.py's npm_tool() finds
# them): a YAML language server that reads cvpdf's schemas (tests/newuser.py)
# and axe-core, the accessibility checker run in a browser page; for make
# bench, Typst.
case "${1:-}" in
    check|fuzz) NPM_TOOLS="yaml-language-server@1.19.0 axe-core@4.10.3" ;;
    bench) NPM_TOOLS="yaml-language-server@1.19.0 axe-core@4.10.3
@myriaddreamin/typst-ts-node-compiler@0.7.0" ;;
    *) exit 0 ;;
esac
NPM_DIR="$(dirname "$0")/../build/npm"
need=""
for t in $NPM_TOOLS; do
    name=${t%@*}
    [ -f "$NPM_DIR/node_modules/$name/package.json" ] &&
        grep -q "\"version\": \"${t##*@}\"" "$NPM_DIR/node_modules/$name/package.json" ||
        need="$need $t"
done
[ -z "$need" ] && exit 0
if ! command -v npm >/dev/null 2>&1; then
    if [ "$UID_NOW" -ne 0 ]; then
        echo "cvpdf's tests need npm, for:$need" >&2
        echo "Install it with:" >&2
        echo "  sudo apt-get install -y --no-install-recommends npm" >&2
        exit 1
    fi
    echo "Installing: npm"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends npm
fi
echo "Installing from npm into build/npm:$need"
mkdir -p "$NPM_DIR"
npm install --prefix "$NPM_DIR" --no-audit --no-fund --loglevel=error $need
