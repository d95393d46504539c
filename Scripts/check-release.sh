#!/usr/bin/env bash
# What only a release build shows: a start links FoundationEssentials and never the rest of
# Foundation or ICU (a debug build links them for SwiftPM's resource accessor, whose code a
# release build drops), and Geo still names countries in the person's language, opening
# Foundation's internationalization on its first need, in the host's process and in a
# sandboxed process of its own. See docs/PERFORMANCE.md, "Foundation, linked only in part".
#
#   swift build -c release && Scripts/check-release.sh [BUILD_FOLDER]   (default .build/release)
#
# Prints one line per check and "check-release: N passed, N failed"; exits 1 when one failed.
set -uo pipefail

checkout="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$checkout/.build/release}"
modhost="$build/modhost"
config="$checkout/modules.json"
if [ ! -x "$modhost" ]; then
    echo "check-release: no release build at '$build'; run 'swift build -c release' first" >&2
    exit 2
fi
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
export MODHOST_DATA_DIR="$data"

passed=0
failed=0
check() { # NAME, then a command that succeeds when the check holds
    local name="$1"
    shift
    if "$@"; then
        echo "pass: $name"
        passed=$((passed + 1))
    else
        echo "FAIL: $name"
        failed=$((failed + 1))
    fi
}

# The libraries the dynamic linker opened for a run, from its own account (LD_DEBUG=files).
opened() { LD_DEBUG=files "$modhost" "$@" 2>&1 >/dev/null </dev/null | sed -n 's/.*file=\([^ ]*\).*/\1/p' | sort -u; }
# Neither Foundation nor its internationalization (and ICU) were opened.
without_foundation() { ! opened "$@" | grep -E '/?(libFoundation|libFoundationInternationalization|lib_FoundationICU)\.so$' >&2; }
# A country named in German, then the list in German: what Geo can say only with ICU loaded.
german_names() {
    local added listed
    added="$(LANG=de_DE.UTF-8 "$modhost" --config "$config" "$@" geo add --country Frankreich --city Lyon 2>&1)" &&
        listed="$(LANG=de_DE.UTF-8 "$modhost" --config "$config" "$@" geo list 2>&1)" &&
        grep -qx 'Frankreich (FR)' <<< "$listed" && return 0
    echo "  geo add said: $added" >&2
    echo "  geo list said: $listed" >&2
    return 1
}
# The list loads internationalization on its need, not at the start.
loads_on_need() { opened --config "$config" geo list | grep -q '/libFoundationInternationalization\.so$'; }

check "--version opens no Foundation beyond FoundationEssentials" without_foundation --version
check "modules on the shipped config opens no Foundation beyond FoundationEssentials" without_foundation --config "$config" modules
check "the app to Welcome opens no Foundation beyond FoundationEssentials" without_foundation --config "$config"
check "Geo names a country in German (in the host's process)" german_names
check "Geo opens Foundation's internationalization when it names a country" loads_on_need
rm -rf "${data:?}"/*
check "Geo names a country in German (in a sandboxed process of its own)" german_names --isolate Geo

echo "check-release: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
