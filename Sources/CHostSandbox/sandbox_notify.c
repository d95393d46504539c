#define _GNU_SOURCE
#include "CHostSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE (1UL << 0)
#endif

/* The host's side of a module's seccomp filter: each call the filter hands over (see
 * modhost_sandbox_filter), described — the program execve names, the path a call on a file
 * names — then refused, or let through in the audit mode. */

/* The text at `address` in process `pid`'s memory, up to `size` - 1 bytes; "" when unreadable. */
static void read_text(pid_t pid, uint64_t address, char *text, size_t size) {
    text[0] = 0;
    if (address == 0) return;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
    int memory = open(path, O_RDONLY | O_CLOEXEC);
    if (memory < 0) return;
    ssize_t got = pread(memory, text, size - 1, (off_t)address);
    text[got > 0 ? got : 0] = 0;
    close(memory);
}

/* Argument `path` of the call `request` describes, made absolute into `out` (against the folder
 * its argument `folder` names, or the process's current folder when that is -1 or AT_FDCWD),
 * its own /proc/self read as the caller's; empty when it could not be read. */
static void absolute_path(const struct seccomp_notif *request, int folder, int path, char *out, size_t size) {
    const __u64 *args = request->data.args;
    out[0] = 0;
    char given[1024];
    read_text(request->pid, args[path], given, sizeof given);
    if (given[0] == 0) return;
    if (given[0] == '/') {
        /* Its own /proc/self, which the host would read as its own. */
        if (strncmp(given, "/proc/self/", 11) == 0 || strcmp(given, "/proc/self") == 0) {
            snprintf(out, size, "/proc/%d%s", (int)request->pid, given + 10);
        } else {
            snprintf(out, size, "%s", given);
        }
        return;
    }
    char link[64], base[1024];
    int descriptor = folder >= 0 ? (int)args[folder] : AT_FDCWD;
    if (descriptor == AT_FDCWD) snprintf(link, sizeof link, "/proc/%d/cwd", (int)request->pid);
    else snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)request->pid, descriptor);
    ssize_t length = readlink(link, base, sizeof base - 1);
    if (length <= 0) return;
    base[length] = 0;
    snprintf(out, size, "%s/%s", strcmp(base, "/") == 0 ? "" : base, given);
}

/* For a call on a file: its path made absolute, and whether it writes; for a rename or a link,
 * the old name too; for execve and execveat, the program's path. */
static void read_file_path(const struct seccomp_notif *request, struct modhost_refusal *refusal) {
    const __u64 *args = request->data.args;
    int nr = request->data.nr;
    int path = -1, folder = -1, writes = 1, source = -1, source_folder = -1;
    uint64_t flags = 0;
    if (nr == SCMP_SYS(open)) path = 0, flags = args[1], writes = -1;
    else if (nr == SCMP_SYS(openat)) folder = 0, path = 1, flags = args[2], writes = -1;
    else if (nr == SCMP_SYS(openat2)) folder = 0, path = 1, writes = -2;
    else if (nr == SCMP_SYS(creat) || nr == SCMP_SYS(mkdir) || nr == SCMP_SYS(rmdir) || nr == SCMP_SYS(unlink) ||
             nr == SCMP_SYS(truncate) || nr == SCMP_SYS(mknod))
        path = 0;
    else if (nr == SCMP_SYS(mkdirat) || nr == SCMP_SYS(unlinkat) || nr == SCMP_SYS(mknodat)) folder = 0, path = 1;
    else if (nr == SCMP_SYS(rename) || nr == SCMP_SYS(link)) source = 0, path = 1;
    else if (nr == SCMP_SYS(symlink)) path = 1;
    else if (nr == SCMP_SYS(renameat) || nr == SCMP_SYS(renameat2) || nr == SCMP_SYS(linkat))
        source_folder = 0, source = 1, folder = 2, path = 3;
    else if (nr == SCMP_SYS(symlinkat)) folder = 1, path = 2;
    else if (nr == SCMP_SYS(execve)) path = 0, writes = 0;
    else if (nr == SCMP_SYS(execveat)) folder = 0, path = 1, writes = 0;
    if (path < 0) return;
    if (writes == -2) {
        /* openat2's flags are the first field of the struct its third argument points at. */
        char how[8];
        char memory[64];
        snprintf(memory, sizeof memory, "/proc/%d/mem", (int)request->pid);
        int fd = open(memory, O_RDONLY | O_CLOEXEC);
        if (fd >= 0 && pread(fd, how, sizeof how, (off_t)args[2]) == (ssize_t)sizeof how) memcpy(&flags, how, sizeof flags);
        if (fd >= 0) close(fd);
    }
    /* An O_PATH open reads nothing, and Landlock lets it through: not noted. */
    if (writes < 0 && (flags & O_PATH) != 0) return;
    if (writes < 0) {
        /* O_CREAT writes only when the file is not there: Landlock asks the folder to make it,
         * not to open one that is. */
        refusal->creates = (flags & O_CREAT) != 0;
        writes = (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC) != 0;
    }
    refusal->writes = writes;
    absolute_path(request, folder, path, refusal->path, sizeof refusal->path);
    if (source >= 0) absolute_path(request, source_folder, source, refusal->source, sizeof refusal->source);
}

int modhost_sandbox_next_refusal(int notify, struct modhost_refusal *refusal) {
    struct pollfd ready = {.fd = notify, .events = POLLIN};
    for (;;) {
        int result = poll(&ready, 1, -1);
        if (result < 0 && errno == EINTR) continue;
        if (result < 0) return errno;
        if (ready.revents & POLLIN) break;
        /* No process uses the filter any more. */
        if (ready.revents & (POLLHUP | POLLERR | POLLNVAL)) return ENOENT;
    }
    struct seccomp_notif *request = NULL;
    struct seccomp_notif_resp *response = NULL;
    if (seccomp_notify_alloc(&request, &response) != 0) return ENOMEM;
    /* libseccomp reports every failure here as ECANCELED; the usual one is a call that went
     * away (its thread was signalled) before it was received. Tried again: poll says when no
     * process uses the filter any more. */
    if (seccomp_notify_receive(notify, request) != 0) {
        seccomp_notify_free(request, response);
        return EAGAIN;
    }
    memset(refusal, 0, sizeof *refusal);
    refusal->id = request->id;
    char *name = seccomp_syscall_resolve_num_arch(request->data.arch, request->data.nr);
    snprintf(refusal->call, sizeof refusal->call, "%s", name != NULL ? name : "an unknown call");
    free(name);
    refusal->first = request->data.args[0];
    refusal->second = request->data.args[1];
    refusal->third = request->data.args[2];
    refusal->caller = (int32_t)request->pid;
    /* The program execve names, read from the caller's memory while the call waits; kept only
     * if the call is still the one received after the read. */
    uint64_t program = 0;
    if (request->data.nr == SCMP_SYS(execve)) program = request->data.args[0];
    if (request->data.nr == SCMP_SYS(execveat)) program = request->data.args[1];
    if (program != 0) {
        read_text(request->pid, program, refusal->program, sizeof refusal->program);
        if (seccomp_notify_id_valid(notify, request->id) != 0) refusal->program[0] = 0;
    }
    read_file_path(request, refusal);
    if (seccomp_notify_id_valid(notify, request->id) != 0) refusal->path[0] = refusal->source[0] = 0;
    seccomp_notify_free(request, response);
    return 0;
}

int modhost_sandbox_refuse(int notify, uint64_t id, int error) {
    struct seccomp_notif *request = NULL;
    struct seccomp_notif_resp *response = NULL;
    if (seccomp_notify_alloc(&request, &response) != 0) return ENOMEM;
    response->id = id;
    response->error = -error;
    response->val = 0;
    response->flags = 0;
    int result = -seccomp_notify_respond(notify, response);
    seccomp_notify_free(request, response);
    /* A call that went away while it waited (its thread ended) needs no answer; libseccomp
     * reports that as ECANCELED. */
    return result == ECANCELED || result == ENOENT ? 0 : result;
}


int modhost_sandbox_allow(int notify, uint64_t id) {
    struct seccomp_notif *request = NULL;
    struct seccomp_notif_resp *response = NULL;
    if (seccomp_notify_alloc(&request, &response) != 0) return ENOMEM;
    response->id = id;
    response->error = 0;
    response->val = 0;
    response->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    int result = -seccomp_notify_respond(notify, response);
    seccomp_notify_free(request, response);
    return result == ECANCELED || result == ENOENT ? 0 : result;
}
