# Build and install Pushline, as Swift command-line tools (SwiftLint, swift-format) do.
#
#   make install                       # release build (static Swift standard library) into /usr/local
#   make install PREFIX=$HOME/.local   # somewhere else
#   make uninstall PREFIX=…            # remove the files install put there (directories stay: they may be shared)
#   make man                           # regenerate man/pushline.1 from the commands (committed; CI checks it)
#   make format                        # format every Swift file as .swift-format says (4 spaces, 120 columns)
#   make lint                          # what CI checks: every Swift file already formatted, no rule broken
#
# DESTDIR stages an install for packaging (make install DESTDIR=/tmp/stage PREFIX=/usr).

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man1
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR ?= $(PREFIX)/share/fish/vendor_completions.d
SWIFT ?= swift
BUILD_FLAGS ?= -c release --static-swift-stdlib
# The manual's date is fixed, so regenerating it changes the file only when the commands change.
MAN_DATE ?= 2026-11-23

# Every Swift file of the repository: the product, its tests and benchmarks, the fuzz package and the example one.
SWIFT_SOURCES ?= Package.swift Sources Tests Benchmarks fuzz Examples

.PHONY: build install uninstall man format lint

build:
	$(SWIFT) build $(BUILD_FLAGS) --product pushline

install: build
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" "$(DESTDIR)$(BASH_COMPLETION_DIR)" \
		"$(DESTDIR)$(ZSH_COMPLETION_DIR)" "$(DESTDIR)$(FISH_COMPLETION_DIR)"
	install -m 0755 "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/pushline" "$(DESTDIR)$(BINDIR)/pushline"
	install -m 0644 man/pushline.1 "$(DESTDIR)$(MANDIR)/pushline.1"
	# Each completion is written aside and moved in, so a failing binary leaves no empty file behind.
	"$(DESTDIR)$(BINDIR)/pushline" --generate-completion-script bash > "$(DESTDIR)$(BASH_COMPLETION_DIR)/pushline.tmp"
	mv "$(DESTDIR)$(BASH_COMPLETION_DIR)/pushline.tmp" "$(DESTDIR)$(BASH_COMPLETION_DIR)/pushline"
	"$(DESTDIR)$(BINDIR)/pushline" --generate-completion-script zsh > "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_pushline.tmp"
	mv "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_pushline.tmp" "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_pushline"
	"$(DESTDIR)$(BINDIR)/pushline" --generate-completion-script fish > "$(DESTDIR)$(FISH_COMPLETION_DIR)/pushline.fish.tmp"
	mv "$(DESTDIR)$(FISH_COMPLETION_DIR)/pushline.fish.tmp" "$(DESTDIR)$(FISH_COMPLETION_DIR)/pushline.fish"
	@echo "installed $(DESTDIR)$(BINDIR)/pushline; check it with: $(BINDIR)/pushline --version"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/pushline" "$(DESTDIR)$(MANDIR)/pushline.1" "$(DESTDIR)$(BASH_COMPLETION_DIR)/pushline" \
		"$(DESTDIR)$(ZSH_COMPLETION_DIR)/_pushline" "$(DESTDIR)$(FISH_COMPLETION_DIR)/pushline.fish"

# ArgumentParser's manual generator plugin, over a debug build (the commands are the same in any build).
man:
	$(SWIFT) package plugin generate-manual --configuration debug --date $(MAN_DATE) --authors "Pushline developers"
	install -d man
	cp .build/plugins/GenerateManual/outputs/pushline/pushline.1 man/pushline.1

format:
	$(SWIFT) format format --in-place --recursive --parallel $(SWIFT_SOURCES)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_SOURCES)
