#ifndef MODHOST_LIBRARY_HASH_H
#define MODHOST_LIBRARY_HASH_H

#include <stddef.h>

/* SHA-256 of the file open at `fd` (read from offset 0 with pread), through the system's
 * libcrypto, which is opened with dlopen on first use only: a run that hashes nothing does not
 * map it. Returns 0 and fills `digest`; otherwise -1 with a message in `error`. */
int modhost_sha256_file(int fd, unsigned char digest[32], char *error, size_t error_size);

#endif
