#!/usr/bin/env bash
# The SDK gate: compares the public API and ABI of ModuleKit and Contracts, as built, with the
# checked-in baseline of the released SDK version (Sources/ModuleKit/SDKBaseline), using the
# toolchain's swift-api-digester. See Sources/ModuleKit/README.md, "Versions".
#
#   Scripts/check-sdk.sh                   check this checkout's build (.build/debug/Modules)
#   Scripts/check-sdk.sh --write-baseline  a release: record the build as the baseline of the
#                                          version in modhost_abi.h
#   options: --kit DIR (the kit package; its modhost_abi.h gives the version),
#            --modules DIR (where ModuleKit.swiftmodule and Contracts.swiftmodule are),
#            --baseline DIR
#
# Exit status: 0 when nothing breaks a module built against the baseline (it lists each
# addition and the version it needs), 1 when a change breaks such modules and the major was not
# raised, or a major removes what no earlier release deprecated; 2 on bad usage, or when the
# digester cannot read a module or the baseline.
set -euo pipefail

checkout="$(cd "$(dirname "$0")/.." && pwd)"
kit="$checkout/Sources/ModuleKit"
modules=""
baseline=""
write=false
while [ $# -gt 0 ]; do
    case "$1" in
        --kit) kit="$2"; shift 2 ;;
        --modules) modules="$2"; shift 2 ;;
        --baseline) baseline="$2"; shift 2 ;;
        --write-baseline) write=true; shift ;;
        -h|--help) sed -n '2,16p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "check-sdk: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
baseline="${baseline:-$kit/SDKBaseline}"
digester="$(command -v swift-api-digester || true)"
if [ -z "$digester" ]; then
    echo "check-sdk: swift-api-digester is not on PATH; it ships with the Swift toolchain (/opt/swift/usr/bin)" >&2
    exit 2
fi

header="$kit/Sources/CModuleABI/include/modhost_abi.h"
version="$(sed -n 's/^#define MODHOST_SDK_VERSION "\(.*\)".*/\1/p' "$header")"
if ! [[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]]; then
    echo "check-sdk: '$header' gives no MAJOR.MINOR.PATCH MODHOST_SDK_VERSION (found '$version')" >&2
    exit 2
fi

if [ -z "$modules" ]; then
    modules="$checkout/.build/debug/Modules"
    if [ ! -f "$modules/ModuleKit.swiftmodule" ] || [ ! -f "$modules/Contracts.swiftmodule" ]; then
        echo "check-sdk: building ModuleKit and Contracts…" >&2
        # One target per call: SwiftPM keeps only the last of several --target options.
        swift build --package-path "$checkout" --target ModuleKit >&2
        swift build --package-path "$checkout" --target Contracts >&2
    fi
fi
for module in ModuleKit Contracts; do
    if [ ! -f "$modules/$module.swiftmodule" ]; then
        echo "check-sdk: no $module.swiftmodule in '$modules'; build the kit first" >&2
        exit 2
    fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The API (what source compiles against) and the ABI (what built modules link against), read
# from the module's interface: a debug build exports internal declarations for testing, which
# its binary module would list as if they were the SDK's.
dump() { # module kind output
    local flags=()
    [ "$2" = abi ] && flags=(-abi)
    if [ ! -f "$modules/$1.swiftinterface" ]; then
        echo "check-sdk: no $1.swiftinterface in '$modules'; the kit's targets are built with library evolution, which emits it" >&2
        exit 2
    fi
    if ! "$digester" -dump-sdk "${flags[@]}" -module "$1" -I "$modules" -use-interface-for-module "$1" -o "$3" \
        -avoid-location -avoid-tool-args; then
        echo "check-sdk: swift-api-digester could not read $1 in '$modules' (see above)" >&2
        exit 2
    fi
}

# A dump the digester wrote, or a baseline: the digester reads a damaged one as an empty module
# without a word, so each is checked to be the dump of the module it names.
check_dump() { # file module
    if ! head -c 400 "$1" 2>/dev/null | tr -d ' \n' | grep -q "\"kind\":\"Root\",\"name\":\"$2\""; then
        echo "check-sdk: '$1' is not a swift-api-digester dump of $2; write the baseline again at a release ('--write-baseline')" >&2
        exit 2
    fi
}

# Compares two dumps; fails the script (status 2) when the digester fails for another reason
# than a breakage it reports.
diagnose() { # output baseline current flags...
    local output="$1" base="$2" current="$3" status=0
    shift 3
    local module
    module="$(basename "$base" | cut -d. -f1)"
    check_dump "$base" "$module"
    check_dump "$current" "$module"
    "$digester" -diagnose-sdk "$@" -input-paths "$base" -input-paths "$current" -ignore-spi-group Host \
        -error-on-abi-breakage -compiler-style-diags > "$output" 2>&1 || status=$?
    if [ "$status" -ne 0 ] && ! grep -q '\[#api-digester-breaking-change\]' "$output"; then
        echo "check-sdk: swift-api-digester could not compare '$base' with '$current':" >&2
        cat "$output" >&2
        exit 2
    fi
}

if $write; then
    mkdir -p "$baseline"
    for module in ModuleKit Contracts; do
        for kind in api abi; do dump "$module" "$kind" "$baseline/$module.$kind.json"; done
    done
    echo "$version" > "$baseline/VERSION"
    echo "check-sdk: wrote the baseline of SDK $version to '$baseline'; commit it with the release"
    exit 0
fi

if [ ! -f "$baseline/VERSION" ]; then
    echo "check-sdk: no baseline in '$baseline'; a release writes one with 'Scripts/check-sdk.sh --write-baseline'" >&2
    exit 2
fi
released="$(tr -d '\r\n' < "$baseline/VERSION")"
if ! [[ "$released" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]]; then
    echo "check-sdk: '$baseline/VERSION' holds '$released', not MAJOR.MINOR.PATCH" >&2
    exit 2
fi
IFS=. read -r major minor patch <<< "$version"
IFS=. read -r base_major base_minor base_patch <<< "$released"

breaking="$work/breaking"
added="$work/added"
removed="$work/removed"
: > "$breaking"; : > "$added"; : > "$removed"
for module in ModuleKit Contracts; do
    for kind in api abi; do
        dump "$module" "$kind" "$work/$module.$kind.json"
        flags=()
        [ "$kind" = abi ] && flags=(-abi)
        # The host's SPI ships with the host: it is not part of what modules rely on.
        diagnose "$work/$module.$kind.out" "$baseline/$module.$kind.json" "$work/$module.$kind.json" "${flags[@]}"
        # "<unknown>:0: error: API breakage: func X has been removed [#api-digester-breaking-change]"
        sed -n 's/^.*: \(error\|warning\): \(API\|ABI\) breakage: \(.*\) \[#api-digester-breaking-change\]$/\3/p' \
            "$work/$module.$kind.out" | while IFS= read -r change; do
            case "$change" in
                *"is a new API without '@available'") echo "$module: ${change% is a new API without*}" >> "$added" ;;
                *) echo "$module ($kind): $change" >> "$breaking" ;;
            esac
        done
    done
    # Removals of what the baseline did not deprecate (the API check without deprecated decls).
    diagnose "$work/$module.removed.out" "$baseline/$module.api.json" "$work/$module.api.json" -disable-remove-deprecated-check
    sed -n 's/^.*: error: API breakage: \(.* has been removed\) \[#api-digester-breaking-change\]$/\1/p' \
        "$work/$module.removed.out" | sed "s/^/$module: /" >> "$removed"
done
sort -u -o "$breaking" "$breaking"
sort -u -o "$added" "$added"

echo "check-sdk: SDK $version (modhost_abi.h) against the baseline of SDK $released"
status=0
if [ -s "$breaking" ]; then
    if [ "$major" -gt "$base_major" ]; then
        echo "Changes that break modules built against $released (allowed: the major is now $major):"
        sed 's/^/  /' "$breaking"
        if [ -s "$removed" ]; then
            echo "error: removed without being deprecated in a $base_major.x release first (deprecate with @available(*, deprecated, message:) for at least one minor):"
            sed 's/^/  /' "$removed"
            status=1
        fi
    else
        echo "error: changes that break modules built against $released; a break needs SDK $((base_major + 1)).0.0, after a deprecation in a $base_major.x minor:"
        sed 's/^/  /' "$breaking"
        status=1
    fi
fi
if [ -s "$added" ]; then
    if [ "$major" -gt "$base_major" ] || { [ "$major" -eq "$base_major" ] && [ "$minor" -gt "$base_minor" ]; }; then
        echo "Additions (SDK $version is a new minor or major, as they need):"
    else
        echo "Additions: each needs a new minor, SDK $base_major.$((base_minor + 1)).0 (set MODHOST_SDK_VERSION in modhost_abi.h and add them to CHANGELOG.md):"
    fi
    sed 's/^/  /' "$added"
fi
if [ ! -s "$breaking" ] && [ ! -s "$added" ]; then
    if [ "$version" = "$released" ]; then
        echo "No change to the API or ABI: a release with other changes is a patch, SDK $major.$minor.$((patch + 1))."
    else
        echo "No change to the API or ABI since $released."
    fi
fi
exit $status
