#ifndef MODHOST_LOADED_IMAGES_H
#define MODHOST_LOADED_IMAGES_H

#include <stddef.h>

/* The path the dynamic linker mapped the image holding `address` from, or NULL. */
const char *modhost_image_path(const void *address);

/* Writes the path of every library the dynamic linker has loaded by a path into `buffer` (as
 * the linker has it: perhaps relative), each ending in a NUL, as far as `size` bytes hold them;
 * returns the bytes all of them need. */
size_t modhost_loaded_image_paths(char *buffer, size_t size);

/* Writes the readable form of the Swift symbol `mangled` ("$s9ModuleKit…") into `output`, at
 * most `size` bytes with the NUL, through the runtime's swift_demangle. Returns 1 when it did,
 * 0 when `mangled` is not a Swift symbol or the runtime has no demangler. */
int modhost_demangle(const char *mangled, char *output, size_t size);

#endif
