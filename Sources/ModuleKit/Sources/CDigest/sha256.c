#define _GNU_SOURCE
/* SHA-256 through the system's libcrypto, opened privately (RTLD_LOCAL) on first use, so that
 * it never joins the symbol scope module libraries are linked against, and a run that hashes
 * nothing does not map it. The one SHA-256 of the kit and the host. */
#include "modhost_sha256.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef void *(*md_fn)(void);
typedef void *(*ctx_new_fn)(void);
typedef void (*ctx_free_fn)(void *);
typedef int (*init_fn)(void *, const void *, void *);
typedef int (*update_fn)(void *, const void *, size_t);
typedef int (*final_fn)(void *, unsigned char *, unsigned int *);

static struct {
    md_fn sha256;
    ctx_new_fn ctx_new;
    ctx_free_fn ctx_free;
    init_fn init;
    update_fn update;
    final_fn final;
    char problem[256];
} crypto;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

static void open_crypto(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(crypto.problem, sizeof crypto.problem, "libcrypto cannot be opened (install Debian's libssl3): %s", dlerror());
        return;
    }
    crypto.sha256 = (md_fn)dlsym(library, "EVP_sha256");
    crypto.ctx_new = (ctx_new_fn)dlsym(library, "EVP_MD_CTX_new");
    crypto.ctx_free = (ctx_free_fn)dlsym(library, "EVP_MD_CTX_free");
    crypto.init = (init_fn)dlsym(library, "EVP_DigestInit_ex");
    crypto.update = (update_fn)dlsym(library, "EVP_DigestUpdate");
    crypto.final = (final_fn)dlsym(library, "EVP_DigestFinal_ex");
    if (!crypto.sha256 || !crypto.ctx_new || !crypto.ctx_free || !crypto.init || !crypto.update || !crypto.final) {
        snprintf(crypto.problem, sizeof crypto.problem, "libcrypto lacks the EVP digest functions");
        crypto.sha256 = NULL;
        dlclose(library);
    }
}

/* A SHA-256 context of libcrypto's, started; NULL with a message in `error`. */
static void *start(char *error, size_t error_size) {
    pthread_once(&crypto_once, open_crypto);
    if (crypto.sha256 == NULL) {
        snprintf(error, error_size, "%s", crypto.problem);
        return NULL;
    }
    void *context = crypto.ctx_new();
    if (context == NULL || crypto.init(context, crypto.sha256(), NULL) != 1) {
        snprintf(error, error_size, "libcrypto could not start a SHA-256 digest");
        if (context) crypto.ctx_free(context);
        return NULL;
    }
    return context;
}

/* Ends `context` into `digest`: 0, or -1 with a message in `error`. */
static int finish(void *context, unsigned char digest[32], char *error, size_t error_size) {
    unsigned int length = 0;
    int ok = crypto.final(context, digest, &length) == 1 && length == 32;
    crypto.ctx_free(context);
    if (!ok) {
        snprintf(error, error_size, "libcrypto could not finish the SHA-256 digest");
        return -1;
    }
    return 0;
}

int modhost_sha256(const void *bytes, size_t count, unsigned char digest[32], char *error, size_t error_size) {
    void *context = start(error, error_size);
    if (context == NULL) return -1;
    if (count > 0 && crypto.update(context, bytes, count) != 1) {
        snprintf(error, error_size, "libcrypto could not digest the bytes");
        crypto.ctx_free(context);
        return -1;
    }
    return finish(context, digest, error, error_size);
}

int modhost_sha256_file(int fd, unsigned char digest[32], char *error, size_t error_size) {
    void *context = start(error, error_size);
    if (context == NULL) return -1;
    unsigned char buffer[65536];
    off_t offset = 0;
    for (;;) {
        ssize_t count = pread(fd, buffer, sizeof buffer, offset);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) {
            snprintf(error, error_size, "cannot be read: %s", strerror(errno));
            crypto.ctx_free(context);
            return -1;
        }
        if (count == 0) break;
        if (crypto.update(context, buffer, (size_t)count) != 1) {
            snprintf(error, error_size, "libcrypto could not digest the file");
            crypto.ctx_free(context);
            return -1;
        }
        offset += count;
    }
    return finish(context, digest, error, error_size);
}
