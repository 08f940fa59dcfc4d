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
#                           parsers, groff and man, debhelper and lintian
#                           (tests/deb.py builds the package), and for the HTML
#                           page (tests/htmlpage.py) chromium, tidy and npm, with
#                           npm's axe-core in build/test-tools/
#   sh tests/deps.sh fuzz   that and what make fuzz needs (clang, libFuzzer)
#   sh tests/deps.sh deb    what building and rendering need, and what make deb
#                           needs (debhelper, lintian)
#
# As root it installs what is missing; otherwise it prints the exact
# apt-get command and exits 1.
set -e
# Building and rendering.
PKGS="gcc g++ make pkg-config libhpdf-dev libfreetype-dev libharfbuzz-dev libyaml-dev
libunibreak-dev libfontconfig-dev libhyphen-dev libbtparse-dev libpng-dev libjpeg-dev
liblcms2-dev libpoppler-glib-dev libcairo2-dev libqpdf-dev libicu-dev libfribidi-dev libphonenumber-dev
libjson-c-dev libwoff-dev
hyphen-en-us hyphen-de hyphen-fr hyphen-es hyphen-it hyphen-nl hyphen-pt-pt hyphen-ru
fonts-noto-core fonts-noto-cjk fonts-dejavu-core fonts-lato
fonts-sil-gentiumplus fonts-cmu fonts-lmodern fonts-ebgaramond fonts-font-awesome
fonts-fork-awesome"
# The tests only (`make check`): some 350 MB, a JDK for PDFBox the most of it.
CHECK_PKGS="poppler-utils qpdf libharfbuzz-bin mupdf-tools fonts-dejavu-extra
python3 python3-pdfminer python3-bibtexparser python3-jsonschema python3-yaml python3-fonttools
groff-base man-db
default-jre-headless default-jdk-headless libpdfbox2-java libactivation-java libjaxb-api-java
debhelper dpkg-dev lintian
chromium tidy python3-brotli"
# `make fuzz` only: clang and its libFuzzer runtime (libclang_rt.fuzzer, in
# libclang-rt-14-dev on Debian 12).
FUZZ_PKGS="clang libclang-rt-dev"
# `make deb` only.
DEB_PKGS="debhelper dpkg-dev lintian"
# npm, for axe-core (tests/htmlpage.py): Debian's, unless an npm is there already
# (Node.js from elsewhere brings its own, which Debian's would conflict with).
command -v npm >/dev/null 2>&1 || CHECK_PKGS="$CHECK_PKGS npm"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# axe-core from npm into build/test-tools/, where tests/htmlpage.py looks.
axe_core() {
    [ -f "$ROOT/build/test-tools/node_modules/axe-core/axe.min.js" ] && return 0
    if [ "$UID_NOW" -ne 0 ] && ! [ -w "$ROOT" ]; then
        echo "tests/htmlpage.py needs axe-core: npm install --prefix build/test-tools axe-core@4" >&2
        return 0
    fi
    mkdir -p "$ROOT/build/test-tools" &&
        npm install --no-audit --no-fund --prefix "$ROOT/build/test-tools" axe-core@4 >&2 ||
        echo "cvpdf: could not install axe-core with npm (tests/htmlpage.py will say so)" >&2
}
case "${1:-}" in
    "") ;;
    check) PKGS="$PKGS $CHECK_PKGS" ;;
    fuzz) PKGS="$PKGS $CHECK_PKGS $FUZZ_PKGS" ;;
    deb) PKGS="$PKGS $DEB_PKGS" ;;
    *) echo "usage: sh tests/deps.sh [check|fuzz|deb]" >&2; exit 2 ;;
esac
# A command in place of dpkg-query, and of id -u (tests/newuser.py).
DPKG_QUERY=${CVPDF_DPKG_QUERY:-dpkg-query}
UID_NOW=${CVPDF_DEPS_UID:-$(id -u)}
missing=""
for p in $PKGS; do
    $DPKG_QUERY -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
        missing="$missing $p"
done
want_axe=false
case "${1:-}" in check|fuzz) want_axe=true ;; esac
if [ -z "$missing" ]; then
    if $want_axe; then axe_core; fi
    exit 0
fi
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
if $want_axe; then axe_core; fi
