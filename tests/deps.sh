#!/bin/sh
# Install the Debian packages cvpdf needs to build, test and render
# (with the argument `fuzz`, also those `make fuzz` needs).
# As root it installs what is missing; otherwise it prints the exact command.
set -e
PKGS="gcc make pkg-config libhpdf-dev libfreetype-dev libharfbuzz-dev libyaml-dev
libunibreak-dev libfontconfig-dev libhyphen-dev libbtparse-dev hyphen-en-us libpng-dev libjpeg-dev liblcms2-dev
libpoppler-glib-dev libcairo2-dev libqpdf-dev
libicu-dev libfribidi-dev fonts-noto-core
hyphen-de hyphen-fr hyphen-es hyphen-it hyphen-nl hyphen-pt-pt hyphen-ru
poppler-utils qpdf libharfbuzz-bin
python3 python3-pdfminer python3-bibtexparser fonts-dejavu-extra fonts-noto-cjk
python3-jsonschema python3-yaml python3-fonttools groff-base man-db
mupdf-tools default-jre-headless libpdfbox2-java libactivation-java libjaxb-api-java
default-jdk-headless
g++ libphonenumber-dev libjson-c-dev fonts-lato fonts-sil-gentiumplus fonts-cmu fonts-lmodern fonts-ebgaramond
fonts-font-awesome fonts-fork-awesome fonts-dejavu-core"
# `make fuzz` only (`sh tests/deps.sh fuzz`): clang and its libFuzzer runtime
# (libclang_rt.fuzzer, in libclang-rt-14-dev on Debian 12).  make check never
# needs them.
FUZZ_PKGS="clang libclang-rt-dev"
[ "${1:-}" = fuzz ] && PKGS="$PKGS $FUZZ_PKGS"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "cvpdf needs these Debian packages:$missing" >&2
    echo "Install them with:" >&2
    echo "  sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "Installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q || true
apt-get install -y -q --no-install-recommends $missing
