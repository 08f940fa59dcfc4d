# cvpdf - résumés from YAML to PDF.
#
#   make          build ./cvpdf
#   make demo     install the missing Debian packages that building and rendering need
#                 (not the tests'), build, render profiles/ into out/
#                 (and in the sidebar and compact layouts into out/sidebar/, out/compact/)
#   make check    install those and the tests' missing Debian packages, build with
#                 ASan+UBSan, run every test
#                 (T=kp: only build/san/test_kp; T=pages: only tests/pages.py;
#                 K=PATTERN: only the tests whose name matches; tests/run.sh)
#   make bench    median wall time, peak memory and size per résumé; line-breaking throughput
#   make valgrind every profile, batch mode and --merge under valgrind memcheck
#   make fuzz     libFuzzer targets (clang) for FUZZ_TIME seconds each (tests/fuzz/)
#   make install  PREFIX=/usr/local DESTDIR= (the binary, its data, the man pages,
#                 bash and zsh completion, and the docs in PREFIX/share/doc/cvpdf;
#                 make uninstall removes them).  Not root: PREFIX=$HOME/.local
#   make schema   write schema/profile.json and schema/layout.json from the loaders
#   make deb      a Debian package (debhelper, debian/) in build/deb/, checked by lintian
#   make clean

PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share/cvpdf
LIBDIR = $(DESTDIR)$(PREFIX)/lib/cvpdf
MANDIR = $(DESTDIR)$(PREFIX)/share/man
BASHCOMPDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
DOCDIR = $(DESTDIR)$(PREFIX)/share/doc/cvpdf
VERSION = 0.1.0

CC ?= cc
PKGS = freetype2 harfbuzz harfbuzz-subset yaml-0.1 libunibreak fontconfig libpng zlib
# poppler-glib (PNG and SVG pages) is opened with dlopen when first needed,
# not linked: linked, its fifty libraries cost every run some 7 ms
# (src/draw_raster.c).  So are lcms2 (PDF/A's output intent, pdf_meta.c),
# ICU's i18n library (other languages' dates, cldr.c), json-c (.json
# profiles, jsonsyntax.c), libjpeg (JPEG photos, image.c), libbtparse (.bib
# files, bib.c), libhyphen (pattern files with more than patterns, hyph.c)
# and FriBidi (right-to-left lines, bidi.c), through syslib.h's cv_lib:
# linked, they cost every run 0.5 M, 1.3 M, 0.25 M, 0.4 M, 0.2 M, 0.05 M
# and 0.04 M instructions of dynamic loading (the last three measured with
# EARLY_LIBS below; each cost more before).
# Their headers are needed, and the names to open.
# ICU's common library is not linked either: what unicode.c asks of it per
# code point is looked up in a table made from it when cvpdf is built
# (tools/gen_ucd.c -> build/ucd_table.h), and it is opened for case mapping
# beyond ASCII (linked, it and the C++ runtime it needs cost every run 2 M
# instructions of dynamic loading and 2.7 MB of memory).
DLOPEN_PKGS = poppler-glib cairo lcms2 icu-uc icu-i18n json-c libjpeg fribidi
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) $(DLOPEN_PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
soname = $(shell objdump -p "$$(pkg-config --variable=libdir $(1) 2>/dev/null)/$(2)" \
       2>/dev/null | awk '$$1 == "SONAME" { print $$2 }')
POPPLER_GLIB_SONAME := $(call soname,poppler-glib,libpoppler-glib.so)
LCMS2_SONAME := $(call soname,lcms2,liblcms2.so)
ICU_I18N_SONAME := $(call soname,icu-i18n,libicui18n.so)
ICU_UC_SONAME := $(call soname,icu-uc,libicuuc.so)
ICU_UC_LIBS := $(shell pkg-config --libs icu-uc 2>/dev/null)
JSONC_SONAME := $(call soname,json-c,libjson-c.so)
JPEG_SONAME := $(call soname,libjpeg,libjpeg.so)
FRIBIDI_SONAME := $(call soname,fribidi,libfribidi.so)
# libbtparse and libhyphen have no .pc file: the compiler finds them.
ccsoname = $(shell objdump -p "$$($(CC) -print-file-name=$(1))" 2>/dev/null \
       | awk '$$1 == "SONAME" { print $$2 }')
BTPARSE_SONAME := $(call ccsoname,libbtparse.so)
HYPHEN_SONAME := $(call ccsoname,libhyphen.so)
# The unit tests call libjpeg, json-c, libhyphen and ICU themselves
# (test_image writes JPEGs, test_schema parses the schemas it checks,
# test_hyph compares with libhyphen, test_unicode with ICU).
UNIT_LIBS = $(shell pkg-config --libs libjpeg json-c 2>/dev/null) $(HYPHEN_LIBS) $(ICU_UC_LIBS)
# libharu ships no .pc file on Debian.
HPDF_CFLAGS ?=
HPDF_LIBS ?= -lhpdf
# libhyphen ships no .pc file either (the unit tests link it; cvpdf opens
# it with dlopen).
HYPHEN_LIBS ?= -lhyphen

CFLAGS ?= -O2 -g
WARN = -std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter -Werror=incompatible-pointer-types
CPPFLAGS += -D_GNU_SOURCE -Iinclude -Ibuild -DCV_VERSION='"$(VERSION)"' \
            -DCV_DATADIR='"$(PREFIX)/share/cvpdf"' -DCV_LIBDIR='"$(PREFIX)/lib/cvpdf"' \
            $(if $(POPPLER_GLIB_SONAME),-DCV_POPPLER_GLIB_SONAME='"$(POPPLER_GLIB_SONAME)"') \
            $(if $(LCMS2_SONAME),-DCV_LCMS2_SONAME='"$(LCMS2_SONAME)"') \
            $(if $(ICU_I18N_SONAME),-DCV_ICU_I18N_SONAME='"$(ICU_I18N_SONAME)"') \
            $(if $(ICU_UC_SONAME),-DCV_ICU_UC_SONAME='"$(ICU_UC_SONAME)"') \
            $(if $(JSONC_SONAME),-DCV_JSONC_SONAME='"$(JSONC_SONAME)"') \
            $(if $(JPEG_SONAME),-DCV_JPEG_SONAME='"$(JPEG_SONAME)"') \
            $(if $(BTPARSE_SONAME),-DCV_BTPARSE_SONAME='"$(BTPARSE_SONAME)"') \
            $(if $(HYPHEN_SONAME),-DCV_HYPHEN_SONAME='"$(HYPHEN_SONAME)"') \
            $(if $(FRIBIDI_SONAME),-DCV_FRIBIDI_SONAME='"$(FRIBIDI_SONAME)"')
ALL_CFLAGS = $(WARN) $(CPPFLAGS) $(PKG_CFLAGS) $(HPDF_CFLAGS) $(CFLAGS)
# libphonenumber is C++ without a .pc file: one shim, src/phone_shim.cc,
# built as a module that src/phone.c opens when a number is first
# formatted (linked, libphonenumber and its C++ libraries cost every run).
PHONE_LIBS ?= -lphonenumber -lstdc++
PHONE_MODULE = build/cvpdf-phone.so
CXX ?= g++
# libwoff2 (WOFF2 faces in HTML pages) is C++ without a .pc file for its
# encoder's C++ runtime: one shim, src/woff2_shim.cc, built as a module that
# src/woff2.c opens when a face is first converted (linked, libwoff2enc and
# Brotli cost every run some 2 M instructions of dynamic loading).
WOFF2_LIBS ?= -lwoff2enc -lstdc++
WOFF2_MODULE = build/cvpdf-woff2.so
MODULES = $(PHONE_MODULE) $(WOFF2_MODULE)
# libm and libc first in the dynamic loader's search order: most
# libraries bind libc's symbols, each looked up library by library in that
# order; at the end of the list (their place as dependencies) that costs
# every run more.  No other library defines a symbol of theirs (libm's
# duplicates of libc's stay before libc), so which definition each symbol
# binds to is unchanged.  (libstdc++ was first too while ICU was linked.)
EARLY_LIBS = -Wl,--push-state,--no-as-needed -lm -lc -Wl,--pop-state
LIBS = $(EARLY_LIBS) $(PKG_LIBS) $(HPDF_LIBS) -ldl -lm

SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

LIB_SRC = $(filter-out src/main.c,$(wildcard src/*.c))
HDRS = $(wildcard include/*.h)
OBJ = $(LIB_SRC:src/%.c=build/%.o)
# The sanitizer builds link the phone and WOFF2 shims in (src/phone.c says why).
SAN_OBJ = $(LIB_SRC:src/%.c=build/san/%.o) build/san/phone_shim.o build/san/woff2_shim.o
SAN_LIBS = $(LIBS) $(PHONE_LIBS) $(WOFF2_LIBS)
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=build/san/%)

.PHONY: all demo check bench valgrind fuzz regress install uninstall clean deps deps-check deps-bench unit \
        format schema deb
.DELETE_ON_ERROR:

all: cvpdf

# Every binary that may format a phone number or write an HTML page has the
# modules beside it.
cvpdf: build/main.o $(OBJ) | $(MODULES)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(PHONE_MODULE): src/phone_shim.cc src/phone_shim.h | build
	$(CXX) -std=c++17 -Wall -Wextra -Iinclude $(CFLAGS) $(LDFLAGS) -fPIC -shared \
	    -o $@ $< $(PHONE_LIBS)

$(WOFF2_MODULE): src/woff2_shim.cc src/woff2_shim.h | build
	$(CXX) -std=c++17 -Wall -Wextra -Iinclude $(CFLAGS) $(LDFLAGS) -fPIC -shared \
	    -o $@ $< $(WOFF2_LIBS)

build/%.o: src/%.c $(HDRS) | build
	$(CC) $(ALL_CFLAGS) -c -o $@ $<
# unicode.c's table of ICU's answers for every code point, made by asking
# ICU when cvpdf is built (tools/gen_ucd.c).
UCD_TABLE = build/ucd_table.h
build/gen_ucd: tools/gen_ucd.c tools/ucd_icu.c tools/ucd_icu.h include/unicode.h | build
	$(CC) $(WARN) $(CPPFLAGS) -Itools $(PKG_CFLAGS) $(CFLAGS) -o $@ tools/gen_ucd.c \
	    tools/ucd_icu.c $(ICU_UC_LIBS)
$(UCD_TABLE): build/gen_ucd
	build/gen_ucd > $@.tmp && mv $@.tmp $@
build/unicode.o build/san/unicode.o build/fuzz/obj/unicode.o: $(UCD_TABLE)

build/san/%.o: src/%.c $(HDRS) | build/san
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -c -o $@ $<

build/san/phone.o: src/phone.c $(HDRS) src/phone_shim.h | build/san
	$(CC) $(ALL_CFLAGS) -DCV_PHONE_LINKED -O1 $(SAN) -c -o $@ $<

build/san/phone_shim.o: src/phone_shim.cc src/phone_shim.h | build/san
	$(CXX) -std=c++17 -Wall -Wextra -Iinclude $(CFLAGS) -O1 $(SAN) -c -o $@ $<

build/san/woff2.o: src/woff2.c $(HDRS) src/woff2_shim.h | build/san
	$(CC) $(ALL_CFLAGS) -DCV_WOFF2_LINKED -O1 $(SAN) -c -o $@ $<

build/san/woff2_shim.o: src/woff2_shim.cc src/woff2_shim.h | build/san
	$(CXX) -std=c++17 -Wall -Wextra -Iinclude $(CFLAGS) -O1 $(SAN) -c -o $@ $<

build/san/cvpdf: build/san/main.o $(SAN_OBJ) | $(MODULES)
	$(CC) $(SAN) -o $@ $^ $(SAN_LIBS)

build/san/test_%: tests/unit/test_%.c tests/unit/harness.h tests/unit/errcheck.h tests/unit/fixture.h $(SAN_OBJ) $(HDRS) | $(MODULES)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -Itests/unit -o $@ $< $(SAN_OBJ) $(SAN_LIBS) $(UNIT_LIBS)
# test_unicode compares unicode.c's table with ICU's answers (tools/ucd_icu.c).
build/san/test_unicode: tools/ucd_icu.c tools/ucd_icu.h
build/san/test_unicode: tests/unit/test_unicode.c tests/unit/harness.h $(SAN_OBJ) $(HDRS) | $(MODULES)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -Itests/unit -Itools -o $@ $< tools/ucd_icu.c $(SAN_OBJ) \
	    $(SAN_LIBS) $(UNIT_LIBS)

build build/san:
	mkdir -p $@

# What building and rendering need; deps-check adds what the tests need
# (tests/deps.sh says which).
deps:
	@sh tests/deps.sh

deps-check:
	@sh tests/deps.sh check

deps-bench:
	@sh tests/deps.sh bench

demo: deps
	@$(MAKE) --no-print-directory cvpdf
	@mkdir -p out
	./cvpdf -l layouts/onecolumn.yaml -o out/ $(filter-out %-zh.yaml,$(wildcard profiles/*.yaml))
	./cvpdf -l layouts/zh.yaml -o out/ $(wildcard profiles/*-zh.yaml)
	./cvpdf -q -l layouts/sidebar.yaml -o out/sidebar/ $(wildcard profiles/*.yaml)
	./cvpdf -q -l layouts/compact.yaml -o out/compact/ $(wildcard profiles/*.yaml)
	@ls -l out/*.pdf

unit: $(UNIT_BIN)

# make check T="NAME..." K=PATTERN: build what the named tests need (a unit
# test's binary; both cvpdf builds for a Python suite) and run only them;
# the names are tests/run.sh's.
CHECK_NEEDS = $(if $(filter unit,$(1)),$(UNIT_BIN) $(REGRESS_BIN),\
              $(if $(filter regress,$(1)),$(REGRESS_BIN),\
              $(if $(wildcard tests/unit/test_$(1).c),build/san/test_$(1) \
                $(if $(wildcard tests/$(1).py),cvpdf build/san/cvpdf),\
              cvpdf build/san/cvpdf)))
CHECK_BIN = $(if $(T),$(sort $(foreach t,$(T:test_%=%),$(call CHECK_NEEDS,$(t)))),\
            cvpdf build/san/cvpdf $(UNIT_BIN) $(REGRESS_BIN))

# The binaries build in parallel (CHECK_MAKEJOBS: -j2 unless the make
# command line gave -j); tests/run.sh runs the suites in parallel too.
CHECK_MAKEJOBS ?= $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2))
check: deps-check
	@$(MAKE) --no-print-directory $(CHECK_MAKEJOBS) $(CHECK_BIN)
	@sh tests/run.sh $(if $(K),-k '$(K)') $(T)

bench: deps-bench
	@$(MAKE) --no-print-directory cvpdf build/bench_wrap
	@sh tests/bench.sh

# Every profile, batch mode and --merge under valgrind's memcheck.
valgrind: deps
	@$(MAKE) --no-print-directory cvpdf
	@sh tests/valgrind.sh

# Fuzzing (tests/fuzz/): libFuzzer targets built with clang into build/fuzz/,
# each run FUZZ_TIME seconds from seed corpora made of profiles/ and layouts/
# (tests/fuzz/run.sh).  The same sources, with tests/fuzz/driver.c as main(),
# build with $(CC) as build/san/fuzz_<target> to replay a crash; and the
# inputs kept in tests/regress/<target>/ replay under make check
# (build/san/test_regress, tests/regress/run.c).
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_TARGETS = profile layout markup render font bib
FUZZ_SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_OBJ = $(LIB_SRC:src/%.c=build/fuzz/obj/%.o)
FUZZ_BIN = $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)
FUZZ_HDRS = tests/fuzz/fuzz.h $(HDRS)
REGRESS_BIN = build/san/test_regress

fuzz:
	@sh tests/deps.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZ_BIN)
	@sh tests/fuzz/run.sh $(FUZZ_TIME) $(FUZZ_TARGETS)

regress: $(REGRESS_BIN)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(REGRESS_BIN)

build/fuzz/obj:
	mkdir -p $@

# Named here so that make keeps them (not intermediate files).
$(FUZZ_BIN): $(FUZZ_OBJ)
build/san/test_regress: $(FUZZ_TARGETS:%=build/san/regress_%.o)

build/fuzz/obj/%.o: src/%.c $(HDRS) | build/fuzz/obj
	$(FUZZ_CC) $(ALL_CFLAGS) -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_HDRS) $(FUZZ_OBJ)
	$(FUZZ_CC) $(ALL_CFLAGS) -O1 $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LIBS)

build/san/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/driver.c $(FUZZ_HDRS) $(SAN_OBJ)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -o $@ $< tests/fuzz/driver.c $(SAN_OBJ) $(SAN_LIBS)

build/san/regress_%.o: tests/fuzz/fuzz_%.c $(FUZZ_HDRS) | build/san
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -DLLVMFuzzerTestOneInput=cv_fuzz_$* -c -o $@ $<

build/san/test_regress: tests/regress/run.c $(FUZZ_TARGETS:%=build/san/regress_%.o) $(SAN_OBJ)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -o $@ $^ $(SAN_LIBS)

# Shaping and breaking throughput (tests/bench_wrap.c), on the -O2 objects.
build/bench_wrap: tests/bench_wrap.c $(OBJ) $(HDRS)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(OBJ) $(LIBS)

# The JSON Schemas, made by cvpdf from its loaders' own tables (schema.h);
# kept in git, and checked against the binary by tests/newuser.py.
schema: cvpdf
	./cvpdf --schema profile > schema/profile.json.tmp
	./cvpdf --schema layout > schema/layout.json.tmp
	mv schema/profile.json.tmp schema/profile.json
	mv schema/layout.json.tmp schema/layout.json

install: cvpdf
	install -d $(BINDIR) $(LIBDIR) $(DATADIR)/fonts $(DATADIR)/layouts $(DATADIR)/schema $(DATADIR)/locales \
	    $(MANDIR)/man1 $(MANDIR)/man5 $(BASHCOMPDIR) $(ZSHCOMPDIR) $(DOCDIR)/rendercv
	install -m 755 cvpdf $(BINDIR)/cvpdf
	install -m 644 $(MODULES) $(LIBDIR)/
	install -m 644 fonts/*.tt[fc] fonts/*.otf fonts/*.txt $(DATADIR)/fonts/
	install -m 644 layouts/*.yaml $(DATADIR)/layouts/
	install -m 644 locales/*.yaml $(DATADIR)/locales/
	install -m 644 schema/*.json $(DATADIR)/schema/
	install -m 644 man/cvpdf.1 $(MANDIR)/man1/
	install -m 644 man/cvpdf-profile.5 man/cvpdf-layout.5 $(MANDIR)/man5/
	install -m 644 completion/cvpdf.bash $(BASHCOMPDIR)/cvpdf
	install -m 644 completion/_cvpdf $(ZSHCOMPDIR)/_cvpdf
	install -m 644 README.md docs/*.md docs/*.png $(DOCDIR)/
	install -m 644 docs/rendercv/*.png $(DOCDIR)/rendercv/

uninstall:
	rm -f $(BINDIR)/cvpdf $(MANDIR)/man1/cvpdf.1 $(MANDIR)/man5/cvpdf-profile.5 \
	    $(MANDIR)/man5/cvpdf-layout.5 $(BASHCOMPDIR)/cvpdf $(ZSHCOMPDIR)/_cvpdf
	rm -rf $(DATADIR) $(LIBDIR) $(DOCDIR)

# The Debian package: the tree copied to build/deb/cvpdf-VERSION (not .git,
# build/, out/), built there with dpkg-buildpackage (debian/rules runs this
# Makefile with PREFIX=/usr), then checked by lintian, whose errors fail it.
DEB = build/deb/cvpdf_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null).deb
deb:
	@sh tests/deps.sh deb
	rm -rf build/deb
	mkdir -p build/deb/cvpdf-$(VERSION)
	tar -cf - --exclude=./.git --exclude=./build --exclude=./out --exclude=./cvpdf \
	    --exclude='./*.pdf' . | tar -xf - -C build/deb/cvpdf-$(VERSION)
	cd build/deb/cvpdf-$(VERSION) && dpkg-buildpackage -us -uc -b
	lintian --fail-on error $(DEB)
	@echo "$(DEB)"

format:
	clang-format -i src/*.c include/*.h tests/unit/*.c tests/unit/*.h

clean:
	rm -rf build cvpdf out
