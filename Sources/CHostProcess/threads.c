#define _GNU_SOURCE
#include "threads.h"

#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int modhost_is_main_thread(void) { return syscall(SYS_gettid) == getpid(); }

int modhost_name_thread(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = '\0';
    return pthread_setname_np(pthread_self(), cut);
}
