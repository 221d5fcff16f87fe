# dm-swaptier: top-level build and test entry points. See README.md.
SERIES   := 6.1 6.12
KERNEL   ?= 6.12
KDIR     ?= /lib/modules/$(shell uname -r)/build
PREFIX   ?= /usr/local
SBINDIR  ?= $(PREFIX)/sbin
UNITDIR  ?= $(PREFIX)/lib/systemd/system
MAN8DIR  ?= $(PREFIX)/share/man/man8

# make cannot work in a directory whose path has a blank, nor can the VM
# lane pass it to the guest: say so once, clearly.
ifneq ($(word 2,$(CURDIR)),)
$(error The checkout path "$(CURDIR)" contains a blank: clone the project to a path without blanks)
endif

.PHONY: all deps kernels module modules-all unit lint vm-check vm-selftest vm-boot \
	check check-debug demo bench bench-quick vm-shell tool install clean \
	dkms dkms-check install-tool uninstall-tool service

all: module

deps:
	@scripts/deps.sh

kernels: deps
	@for s in $(SERIES); do scripts/kernel.sh fetch $$s >/dev/null || exit 1; done

# Out-of-tree build against KDIR (default: the running kernel's headers).
module:
	@test -e $(KDIR)/Makefile || { echo "make module: no kernel headers at $(KDIR); pass KDIR=<headers dir>" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/drivers/md CONFIG_DM_SWAPTIER=m KCFLAGS=-Werror modules

modules-all: kernels
	@scripts/build-module.sh $(SERIES)

unit: deps
	@tests/unit/run.sh

# The DKMS package (build/dkms/dm-swaptier-dkms_<version>_all.deb), and its
# check: "dkms build" of the packaged source against both test kernels.
dkms: deps
	@scripts/dkms.sh deb

dkms-check: deps
	@scripts/dkms.sh check

lint: deps kernels
	@scripts/lint.sh

vm-check: modules-all
	@rc=0; for s in $(SERIES); do tests/vm/suite.sh --kernel $$s || rc=1; done; exit $$rc

vm-selftest: modules-all
	@tests/vm/selftest/harness.sh

# systemd as init, the boot unit and /etc/dmswaptier.conf, on each kernel
vm-boot: modules-all tool
	@tests/vm/boot/systemd.sh $(SERIES)

# Everything; the last line is "N passed, N failed".
check: deps
	@tests/check.sh

# The whole VM suite, long cases included, and the fault cases on the debug
# kernel (make check runs it without the "# debug-lane: full" cases).
check-debug: deps
	@scripts/build-module.sh 6.12-debug && tests/vm/build-tools.sh && \
		SWT_DEBUG_FULL=1 tests/vm/suite.sh --kernel 6.12-debug

demo: modules-all
	@demo/demo.sh $(KERNEL)

# The benchmark against native swap and dm-cache on both kernels; the
# report goes to bench/results/. bench-quick: the same with tiny sizes.
bench: deps kernels
	@bench/run.sh $(SERIES)

bench-quick: deps kernels
	@bench/run.sh --quick $(KERNEL)

vm-shell: modules-all
	@mkdir -p build/vm-shell
	tests/vm/run.sh --kernel $(KERNEL) --out build/vm-shell --interactive \
		--disk fast:256 --disk slow:1024:hdd

TOOL_SRC := $(addprefix tools/dmswaptier/,dmswaptier.c swt_trace.c swt_status.c \
	swt_cols.c swt_parse.c swt_conf.c swt_record.c swt_blkid.c)
TOOL_HDR := $(wildcard tools/dmswaptier/*.h) drivers/md/dm-swaptier-abi.h

SMARTCOLS = $(shell pkg-config --cflags --libs smartcols 2>/dev/null || echo -lsmartcols)
BLKID = $(shell pkg-config --cflags --libs blkid 2>/dev/null || echo -lblkid)

tool: build/bin/dmswaptier

build/bin/dmswaptier: $(TOOL_SRC) $(TOOL_HDR)
	@mkdir -p build/bin
	$(CC) -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -D_GNU_SOURCE -Idrivers/md -o $@ $(TOOL_SRC) \
		$(SMARTCOLS) $(BLKID) \
		-ldevmapper

install: module install-tool
	$(MAKE) -C $(KDIR) M=$(CURDIR)/drivers/md modules_install

# The boot unit with the tool's path (SBINDIR) in build/dmswaptier.service:
# written anew every time, as SBINDIR may not be the last one.
service:
	@mkdir -p build
	sed 's#@SBINDIR@#$(SBINDIR)#g' tools/dmswaptier/dmswaptier.service \
		>build/dmswaptier.service

# The tool, the boot unit (in $(PREFIX)/lib/systemd/system, where systemd
# looks for units of a local install; /usr/lib/systemd/system with
# PREFIX=/usr) and the man page, each with its mode whatever the umask;
# the module comes from the DKMS package instead.
install-tool: tool service
	install -D -m 0755 build/bin/dmswaptier $(DESTDIR)$(SBINDIR)/dmswaptier
	install -D -m 0644 build/dmswaptier.service $(DESTDIR)$(UNITDIR)/dmswaptier.service
	install -D -m 0644 docs/dmswaptier.8 $(DESTDIR)$(MAN8DIR)/dmswaptier.8

# What install-tool installed (with the same PREFIX). Disable the unit
# first: systemctl disable --now dmswaptier.service
uninstall-tool:
	@if [ -e $(DESTDIR)/etc/systemd/system/swap.target.wants/dmswaptier.service ]; then \
		echo "uninstall-tool: dmswaptier.service is still enabled: systemctl disable --now dmswaptier.service" >&2; \
		exit 1; \
	fi
	rm -f $(DESTDIR)$(SBINDIR)/dmswaptier $(DESTDIR)$(UNITDIR)/dmswaptier.service \
		$(DESTDIR)$(MAN8DIR)/dmswaptier.8

clean:
	rm -rf build
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/drivers/md clean 2>/dev/null
