#ifndef MODHOST_ABI_H
#define MODHOST_ABI_H

/*
 * The C boundary between the modhost host and a module library.
 *
 * Every module library exports one symbol, MODHOST_ENTRY_SYMBOL, of type modhost_entry_fn.
 * The host calls it first with MODHOST_REQUEST_DESCRIBE and receives a modhost_descriptor:
 * plain C data only. The host checks abi_version, then kit_fingerprint, then name, and only
 * when all three match does it call the entry again with MODHOST_REQUEST_INSTANTIATE, which
 * returns a retained Swift object (the module). No Swift type crosses before that.
 *
 * abi_version stays the first field in every future layout so that any host can read it.
 */

#include <stdint.h>

#define MODHOST_ABI_VERSION 1u
/* The semantic version of the SDK: the ModuleKit package (ModuleKit, Contracts,
 * ModuleKitNetworking, ModuleKitTesting and the build plugins). Recorded in every module's
 * descriptor and reported by `modhost --version`; compatibility itself is decided by the kit
 * fingerprint, which changes with any source change, released or not. */
#define MODHOST_SDK_VERSION "0.2.0"
#define MODHOST_ENTRY_SYMBOL "modhost_module_entry"

/*
 * The descriptor as plain data, readable from the file without loading it.
 *
 * Every module library also carries its descriptor in an ELF section of this name, so the host
 * can check it (and plan which modules start) before any of the library's code runs. Layout:
 *   bytes 0-3   the magic "MHDS"
 *   bytes 4-5   MODHOST_DESCRIPTOR_FORMAT, little endian; bytes 6-7 zero
 *   bytes 8-11  the payload's length in bytes, little endian
 *   payload     UTF-8 lines "key=value\n" in this order: abi (MODHOST_ABI_VERSION), kit (the
 *               ModuleKit fingerprint), sdk (MODHOST_SDK_VERSION; format 2 on), name,
 *               version, provides, requires, uses (route names separated by commas, possibly
 *               none), contracts (format 3 on: "Name:fingerprint" of each contracts library
 *               outside the kit that the manifest imports, separated by commas, possibly none)
 * At most MODHOST_DESCRIPTOR_MAX_SIZE bytes in all. Swift modules get it generated from their
 * module.manifest by the kit's ModuleDescriptorPlugin.
 */
#define MODHOST_DESCRIPTOR_SECTION ".modhost_descriptor"
/* Format 1 has no sdk line and format 2 no contracts line; a host still reads both, to say
 * which kit such a library needs. */
#define MODHOST_DESCRIPTOR_FORMAT 3u
#define MODHOST_DESCRIPTOR_MAX_SIZE 8192u

/*
 * A contracts library's build, as plain data.
 *
 * A library of route protocols shared by modules (a package with a dynamic product, like the
 * kit's Contracts) may apply the kit's ContractsFingerprintPlugin. Its library then carries an
 * ELF section of this name: the magic "MHCT", MODHOST_CONTRACTS_FORMAT (UInt16, little endian),
 * two zero bytes, the payload's length (UInt32, little endian), and the payload "name=Name\n"
 * "fingerprint=32 hex digits\n". The fingerprint is a digest of the target's Swift sources,
 * the same one each module that imports the library records in its descriptor's contracts
 * line; the host refuses a module whose record differs from the build the process loads.
 */
#define MODHOST_CONTRACTS_SECTION ".modhost_contracts"
#define MODHOST_CONTRACTS_FORMAT 1u

enum {
    MODHOST_REQUEST_DESCRIBE = 1,
    MODHOST_REQUEST_INSTANTIATE = 2
};

typedef struct modhost_descriptor {
    /* MODHOST_ABI_VERSION of the kit the module was compiled against. */
    uint32_t abi_version;
    /* NUL-terminated hex digest of the ModuleKit sources the module was compiled against. */
    const char *kit_fingerprint;
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
