# rpcbench: one binary, ./rpcbench.  `make check` installs what is missing,
# builds, and runs every test; `make check SAN=1` does it under ASan+UBSan.
# Quiet lines unless V=1.

CC       ?= cc
SAN      ?=
MPI      ?=
V        ?=
Q        := $(if $(V),,@)

# MPI=1: the Open MPI build (mpicc, -DRPCBENCH_MPI: src/dist/ talks MPI),
# in build/mpi; without it src/dist/ is a single process and needs no mpi.h.
# FIGURE_ROW=1: the figure-row build (build/figrow), with one more figure
# in model/metric.h's table (-DRPCBENCH_TEST_FIGURE): only
# tests/it_figure_row.py runs it, to see a figure added in one row
# everywhere.
FLAVOR   := $(if $(MPI),mpi,$(if $(SAN),san,$(if $(FIGURE_ROW),figrow,rel)))
BUILD    := build/$(FLAVOR)
ifneq ($(MPI),)
CC       := mpicc
MPIFLAGS := -DRPCBENCH_MPI
# Debian's libev also exports libevent's names (event_add ...), and Open
# MPI's runtime calls libevent: linked first, libevent is found first, or
# MPI_Init lands in libev and crashes.
MPI_EVENT := $(shell ldd $$(ldconfig -p | awk '/libopen-pal\.so /{print $$NF; exit}') 2>/dev/null | \
               awk '/libevent/{print $$3}')
MPI_LIBS := -Wl,--no-as-needed -lmpi $(MPI_EVENT) -Wl,--as-needed
endif

# xmlrpc-c ships no .pc file; libev and http-parser neither.
XMLRPC_CFLAGS := $(shell xmlrpc-c-config --cflags 2>/dev/null)
XMLRPC_LIBS   := $(shell xmlrpc-c-config --libs 2>/dev/null)
JSONC_CFLAGS  := $(shell pkg-config --cflags json-c 2>/dev/null)
JSONC_LIBS    := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
SAN_ON   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SANFLAGS := $(if $(SAN),$(SAN_ON))
CFLAGS   ?= -O2 -g
# Frame pointers: perf (--profile) walks the stacks of `rpcbench serve`, the
# same binary, without DWARF unwinding.
FPFLAGS  := -fno-omit-frame-pointer
ROWFLAGS := $(if $(FIGURE_ROW),-DRPCBENCH_TEST_FIGURE)
ALL_CFLAGS  = -std=c11 -D_GNU_SOURCE $(CFLAGS) $(FPFLAGS) $(WARN) $(SANFLAGS) $(MPIFLAGS) $(ROWFLAGS) -MMD -MP \
              -iquote src -iquote . $(JSONC_CFLAGS) $(XMLRPC_CFLAGS)
# The Python sampler's layout table (src/profile/pysample_layout.c) is
# taken with offsetof over CPython 3.11's internal headers
# (libpython3.11-dev): that file alone sees them, as system headers.
PY_CFLAGS := -isystem /usr/include/python3.11
LIBS     := $(MPI_LIBS) -lev -lhttp_parser -lssl -lcrypto -lz $(JSONC_LIBS) $(XMLRPC_LIBS) -lm
LDFLAGS  += $(SANFLAGS)

# Every .c under src/<layer>/ and encoders/ is part of the program; main.c
# alone is left out of the library the tests link against. Includes name
# their layer ("base/buf.h"); `make check-layers` enforces who may include
# whom (scripts/check-layers.sh, docs/development.md), and `make
# test` that no file calls one that calls it back (scripts/check-cycles.sh,
# on the objects just built).
LIB_SRC  := $(filter-out src/cli/main.c,$(wildcard src/*/*.c)) $(wildcard encoders/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/cli/main.o
UNIT_SRC := $(wildcard tests/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/%.c=$(BUILD)/tests/%)
# Every fuzz harness, linked with a plain main (tests/fuzz/replay_main.c)
# by this build's compiler and flags: `make test` builds them first, and
# tests/run.sh replays the checked-in seeds and regressions through them.
REPLAY_SRC := $(wildcard tests/fuzz/fuzz_*.c)
REPLAY_BIN := $(REPLAY_SRC:tests/fuzz/%.c=$(BUILD)/fuzz-replay/%)
BENCH_SRC := $(wildcard bench/*.c)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

.PHONY: all deps build man check check-layers test test-build demo bench fuzz clean
all: deps
	$(Q)$(MAKE) --no-print-directory build

# MPI=1 installs Open MPI too (mpicc, mpi.h). The $(shell ...) lines above
# ran before it, at parse time: the build is a second make, which parses
# again once mpicc is there.
deps:
	$(Q)scripts/deps.sh $(if $(MPI),mpi,build)

build: rpcbench man completion

# The man pages, build outputs never committed: rpcbench(1) and
# rpcbench-CMD(1) for each command the binary names (`rpcbench
# help-man-list`; a new command gets its page with nothing to add here),
# written by the binary from its option table (src/cli/option_man.c), and
# rpcbench-files(5) made from docs/files.md (scripts/md2man.awk).
MAN_DIR := build/man
MAN := $(MAN_DIR)/rpcbench.1
.PHONY: man
man: $(MAN)
$(MAN): $(BUILD)/rpcbench docs/files.md scripts/md2man.awk
	@echo "  MAN   $(MAN_DIR)/"
	$(Q)rm -rf $(MAN_DIR).tmp && mkdir -p $(MAN_DIR).tmp
	$(Q)for c in $$($(BUILD)/rpcbench help-man-list); do \
	    $(BUILD)/rpcbench help-man $$c > $(MAN_DIR).tmp/rpcbench-$$c.1 || exit 1; done
	$(Q)awk -v version="$$($(BUILD)/rpcbench --version | cut -d' ' -f2)" \
	    -f scripts/md2man.awk docs/files.md > $(MAN_DIR).tmp/rpcbench-files.5
	$(Q)$(BUILD)/rpcbench help-man > $(MAN_DIR).tmp/rpcbench.1
	$(Q)rm -rf $(MAN_DIR) && mv $(MAN_DIR).tmp $(MAN_DIR)

# The bash completion, written as the man page is (`rpcbench
# help-completion`, src/cli/option_completion.c): a build output.
COMPLETION := build/rpcbench.bash-completion
.PHONY: completion
completion: $(COMPLETION)
$(COMPLETION): $(BUILD)/rpcbench
	@echo "  GEN   $@"
	$(Q)$(BUILD)/rpcbench help-completion > $@.tmp && mv -f $@.tmp $@

# install / uninstall: the binary, the man pages, the bash completion and
# the manual (README.md, docs/), under $(DESTDIR)$(PREFIX) (the Debian
# package installs with PREFIX=/usr). The completion goes where
# bash-completion looks for it under the prefix.
PREFIX      ?= /usr/local
BINDIR      := $(PREFIX)/bin
MAN1DIR     := $(PREFIX)/share/man/man1
MAN5DIR     := $(PREFIX)/share/man/man5
COMPDIR     := $(PREFIX)/share/bash-completion/completions
DOCDIR      := $(PREFIX)/share/doc/rpcbench
DOCS        := README.md $(wildcard docs/*.md docs/*.png)
INSTALLED   := $(BINDIR)/rpcbench $(MAN1DIR)/rpcbench.1 $(MAN1DIR)/rpcbench-*.1 \
               $(MAN5DIR)/rpcbench-files.5 $(COMPDIR)/rpcbench $(addprefix $(DOCDIR)/,$(DOCS))
.PHONY: install uninstall
install: build
	$(Q)install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(MAN5DIR) \
	    $(DESTDIR)$(COMPDIR) $(DESTDIR)$(DOCDIR)/docs
	$(Q)install -m 755 $(BUILD)/rpcbench $(DESTDIR)$(BINDIR)/rpcbench
	$(Q)install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(MAN1DIR)/
	$(Q)install -m 644 $(MAN_DIR)/*.5 $(DESTDIR)$(MAN5DIR)/
	$(Q)install -m 644 $(COMPLETION) $(DESTDIR)$(COMPDIR)/rpcbench
	$(Q)install -m 644 README.md $(DESTDIR)$(DOCDIR)/README.md
	$(Q)install -m 644 $(filter docs/%,$(DOCS)) $(DESTDIR)$(DOCDIR)/docs/
	@echo "  INSTALL $(DESTDIR)$(PREFIX): bin/rpcbench, $(words $(wildcard $(MAN_DIR)/*)) man pages, the completion, the manual"
uninstall:
	$(Q)rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	$(Q)rmdir $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null || true

# deb: the Debian package, built by dpkg-buildpackage (debian/) in a copy
# of the tree's files under build/deb/src, so that its `debian/rules
# clean` never wipes this tree's build; the .deb lands in build/deb/ (DEB_DIR). The
# copy has no .git: the commit it was built from is passed down.
DEB_DIR ?= build/deb
.PHONY: deb
deb:
	$(Q)scripts/deps.sh deb
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	$(Q)git ls-files -z --cached --others --exclude-standard | \
	    xargs -0 tar cf - | tar xf - -C $(DEB_DIR)/src
	$(Q)cd $(DEB_DIR)/src && GIT_DESCRIBE='$(GIT_DESCRIBE)' \
	    dpkg-buildpackage -us -uc -b > ../build.log 2>&1 || \
	    { tail -30 ../build.log; exit 1; }
	@ls $(DEB_DIR)/*.deb

# ./rpcbench is a copy of the flavor just built, so switching SAN swaps it
# (phony: checked on every make; a FORCE prerequisite would not do, since
# .SECONDARY exempts it); copied then renamed, so a ./rpcbench still
# running keeps its old file.
.PHONY: rpcbench
rpcbench: $(BUILD)/rpcbench
	$(Q)cmp -s $< $@ || { cp $< $@.tmp.$$$$ && mv -f $@.tmp.$$$$ $@; }

$(BUILD)/rpcbench: $(MAIN_OBJ) $(BUILD)/librpcbench.a
	@echo "  LINK  $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/librpcbench.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

# The version names the commit it was built from (base/version.c), only in
# a git clone of this tree (not a tarball inside some other repository).
# The stamp is rewritten, at parse time, only when `git describe` changes,
# so only version.o is rebuilt.
# A copy without .git (make deb) is given it in the environment.
ifeq ($(origin GIT_DESCRIBE),undefined)
GIT_DESCRIBE := $(if $(wildcard .git),$(shell git describe --tags --always --dirty 2>/dev/null))
endif
VERSION_STAMP := $(BUILD)/version.stamp
$(shell mkdir -p $(BUILD) && { echo '$(GIT_DESCRIBE)' | cmp -s - $(VERSION_STAMP) || \
        echo '$(GIT_DESCRIBE)' > $(VERSION_STAMP); })
$(BUILD)/src/base/version.o: $(VERSION_STAMP)
$(BUILD)/src/base/version.o: ALL_CFLAGS += -DRPCBENCH_GIT_DESCRIBE='"$(GIT_DESCRIBE)"'

$(BUILD)/src/profile/pysample_layout.o: ALL_CFLAGS += $(PY_CFLAGS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/librpcbench.a
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lcmocka $(LIBS)

$(BUILD)/fuzz-replay/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/replay_main.o $(BUILD)/librpcbench.a
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bench/%: $(BUILD)/bench/%.o $(BUILD)/librpcbench.a
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# check: make sure the test peers are installed, then build and run all.
check:
	$(Q)scripts/deps.sh check
	$(Q)$(MAKE) --no-print-directory check-layers test

check-layers:
	$(Q)scripts/check-layers.sh

# The MPI binary for tests/it_mpi.py, beside ./rpcbench (never over it),
# when mpicc is there (scripts/deps.sh check installs it).
MPI_BIN := $(if $(shell command -v mpicc 2>/dev/null),build/mpi/rpcbench)
# The profiler tests' server with planted costs (tests/it_profile.py):
# frame pointers and no inlining, so each planted function is a frame.
PLANTED := $(BUILD)/tests/planted_server
$(PLANTED): tests/planted/planted_server.c
	@echo "  CC    $@"
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-inline $(WARN) $(SANFLAGS) \
		-o $@ $< -pthread

# test-build: everything the tests run, built (.ci/run builds both flavors
# first, then runs their suites side by side).
test-build: rpcbench $(REPLAY_BIN) $(UNIT_BIN) $(PLANTED)
	$(Q)$(if $(MPI_BIN),$(MAKE) --no-print-directory MPI=1 SAN= build/mpi/rpcbench)
	$(Q)$(MAKE) --no-print-directory FIGURE_ROW=1 SAN= build/figrow/rpcbench

test: test-build
	$(Q)scripts/check-cycles.sh $(BUILD)
	$(Q)BUILD=$(BUILD) SAN=$(SAN) RPCBENCH_MPI=$(if $(MPI_BIN),$(CURDIR)/$(MPI_BIN)) \
	    RPCBENCH_FIGURE_ROW=$(CURDIR)/build/figrow/rpcbench T='$(T)' tests/run.sh

demo:
	$(Q)scripts/deps.sh check
	$(Q)$(MAKE) --no-print-directory rpcbench
	$(Q)./rpcbench compare --verb getAllVmStats --vms 150 --rate 5 --duration 8s \
	    --warmup 2s --rounds 3 --plot demo.svg --html demo.html
	@echo "demo: wrote demo.svg (the page's charts) and demo.html (one self-contained page: open it in a browser)"
	@echo "demo: this measured the built-in C simulator (rpcbench serve), not VDSM: its costs"
	@echo "      are not VDSM's (VDSM's own server spent about 10x more CPU per getAllVmStats)."
	@echo "      Against a real host (README, A/B): ./rpcbench compare --url"
	@echo "      https://HOST:54321/RPC2,stomps://HOST:54321 --proto xmlrpc,jsonrpc --cacert CA.pem"
	@echo "      --cert CLIENT.pem --key CLIENT.key --server-pid VDSM_PID"

bench:
	$(Q)scripts/deps.sh bench
	$(Q)$(MAKE) --no-print-directory rpcbench $(BENCH_BIN)
	$(Q)BUILD=$(BUILD) bench/run.sh

# fuzz: libFuzzer targets (tests/fuzz/fuzz_*.c) built with clang against
# the whole library under ASan+UBSan, into build/fuzz/; tests/fuzz/run.sh
# replays the seeds and regressions, then fuzzes each FUZZ_SECONDS.
FUZZ_SECONDS ?= 15
FUZZ_CC      ?= clang
FUZZ_DIR     := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_CFLAGS   = -std=c11 -D_GNU_SOURCE -O1 -g $(WARN) $(FUZZ_SAN) -MMD -MP \
                -iquote src -iquote . $(JSONC_CFLAGS) $(XMLRPC_CFLAGS)
FUZZ_OBJ     := $(LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN     := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_DIR)/%)

fuzz:
	$(Q)scripts/deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory $(FUZZ_BIN)
	$(Q)FUZZ_DIR=$(FUZZ_DIR) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh

$(FUZZ_DIR)/obj/src/profile/pysample_layout.o: FUZZ_CFLAGS += $(PY_CFLAGS)

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC    $< (fuzz)"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/librpcbench.a: $(FUZZ_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o $(FUZZ_DIR)/librpcbench.a
	@echo "  LINK  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(filter %.o %.a,$^) $(LIBS)

clean:
	rm -rf build rpcbench demo.svg demo.html demo.*.dat demo.gp


# Test and fuzz objects are intermediate to make; keep them for the next build.
.SECONDARY:

-include $(shell find build -name '*.d' 2>/dev/null)
