#ifndef MODHOST_ABI_H
#define MODHOST_ABI_H

/*
 * The C boundary between the modhost host and a module library.
 *
 * Every module library exports one symbol, MODHOST_ENTRY_SYMBOL, of type modhost_entry_fn.
 * Before the host opens a library it reads the library's descriptor section (below) from the
 * file and checks the ABI version, the SDK version and the compiler; only then does it open
 * the library and call the entry point with MODHOST_REQUEST_DESCRIBE, which answers a
 * modhost_descriptor (plain C data) that must agree with the section, and then with
 * MODHOST_REQUEST_INSTANTIATE, which returns a retained Swift object (the module). No Swift
 * type crosses before that.
 *
 * abi_version stays the first field in every future layout so that any host can read it.
 */

#include <stdint.h>

/* Version 2 replaced the kit fingerprint (version 1) by the SDK version. */
#define MODHOST_ABI_VERSION 2u
/* The semantic version of the SDK: ModuleKit and Contracts, built with library evolution.
 * A host loads a module built against the same major and a minor up to its own, by the same
 * compiler (see the SDK guide, Sources/ModuleKit/README.md, and CHANGELOG.md). The one place
 * the version is written: the build tools, the kit and `modhost --version` read it here. */
#define MODHOST_SDK_VERSION "1.8.0"
#define MODHOST_ENTRY_SYMBOL "modhost_module_entry"

/*
 * The descriptor as plain data, readable from the file without loading it.
 *
 * Every module library also carries its descriptor in an ELF section of this name, so the host
 * can check it (and plan which modules start) before any of the library's code runs. Layout:
 *   bytes 0-3   the magic "MHDS"
 *   bytes 4-5   MODHOST_DESCRIPTOR_FORMAT, little endian; bytes 6-7 zero
 *   bytes 8-11  the payload's length in bytes, little endian
 *   payload     UTF-8 lines "key=value\n" in this order: abi (MODHOST_ABI_VERSION), sdk
 *               (MODHOST_SDK_VERSION of the kit it was built against), compiler (the first
 *               line of `swiftc --version` of the compiler that built it), name, version,
 *               provides, requires, uses (route names separated by commas, possibly none),
 *               contracts ("Name:version" of each contracts library outside the kit that the
 *               manifest imports, separated by commas, possibly none)
 * At most MODHOST_DESCRIPTOR_MAX_SIZE bytes in all. Swift modules get it generated from their
 * module.manifest by the kit's ModuleDescriptorPlugin.
 */
#define MODHOST_DESCRIPTOR_SECTION ".modhost_descriptor"
/* Formats 1 to 3 (before SDK 1.0) recorded a fingerprint of the kit's sources instead of the
 * SDK version and compiler; a host still reads their sdk line, to say which kit they need. */
#define MODHOST_DESCRIPTOR_FORMAT 4u
#define MODHOST_DESCRIPTOR_MAX_SIZE 8192u

/*
 * A contracts library's version, as plain data.
 *
 * A library of route protocols shared by modules (a package with a dynamic product, built with
 * library evolution) applies the kit's ContractsVersionPlugin and declares its semantic
 * version in a contracts.manifest beside its sources. Its library then carries an ELF section
 * of this name: the magic "MHCT", MODHOST_CONTRACTS_FORMAT (UInt16, little endian), two zero
 * bytes, the payload's length (UInt32, little endian), and the payload "name=Name\n"
 * "version=MAJOR.MINOR.PATCH\n" "compiler=<first line of swiftc --version>\n". Each module that imports the library records the version it
 * was built against in its descriptor's contracts line; the host refuses a module whose
 * record is of another major, or of a newer minor, than the library the process holds.
 */
#define MODHOST_CONTRACTS_SECTION ".modhost_contracts"
/* Format 1 recorded a fingerprint of the library's sources instead of a version. */
#define MODHOST_CONTRACTS_FORMAT 2u

enum {
    MODHOST_REQUEST_DESCRIBE = 1,
    MODHOST_REQUEST_INSTANTIATE = 2
};

typedef struct modhost_descriptor {
    /* MODHOST_ABI_VERSION of the kit the module was compiled against. */
    uint32_t abi_version;
    /* NUL-terminated MODHOST_SDK_VERSION of the kit the module was compiled against. */
    const char *sdk_version;
    /* NUL-terminated module name; must equal the name in modules.json. */
    const char *name;
    /* NUL-terminated module version, free-form (semantic versions recommended). */
    const char *version;
} modhost_descriptor;

/*
 * DESCRIBE returns a const modhost_descriptor * that stays valid for the life of the process.
 * INSTANTIATE returns an owned (+1) Swift object pointer, or NULL.
 */
typedef void *modhost_entry_fn(uint32_t request);

#endif
