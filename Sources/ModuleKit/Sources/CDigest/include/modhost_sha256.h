#ifndef MODHOST_SHA256_H
#define MODHOST_SHA256_H

#include <stddef.h>

/* SHA-256 through the system's libcrypto (Debian: libssl3), opened with dlopen on first use
 * only. Each returns 0 and fills `digest`, or -1 with a message in `error`. */

/* Of `count` bytes at `bytes`. */
int modhost_sha256(const void *bytes, size_t count, unsigned char digest[32], char *error, size_t error_size);

/* Of the file open at `fd`, read from offset 0 with pread (its offset is left alone). */
int modhost_sha256_file(int fd, unsigned char digest[32], char *error, size_t error_size);

#endif
