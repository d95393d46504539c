#define _GNU_SOURCE
/* The crash marker and a probe's report: where the guard writes whose call is running and how
 * it ended, from the signal, exit and watchdog paths (async-signal-safe: stores into a shared
 * mapping of the marker, pwrite, write). */
#include "host_guard.h"
#include "guard_marker.h"
#include "guard_outcome.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

enum { RECORD_SIZE = 1024 };

static char record[RECORD_SIZE];
static size_t record_length;
static int marker_fd = -1;
/* Where a call's end (crash, exit, hang) is also reported as one line, or -1 (see
 * modhost_guard_set_report). */
static int report_fd = -1;
static char report_prefix[64];
static atomic_int reported_end;
static char marker_path[4096];
static char backtrace_path[4096];

/* The marker always holds MARKER_SIZE bytes: a record padded with spaces, so every update is
 * one pwrite and never needs a truncate. */
enum { MARKER_SIZE = RECORD_SIZE + 64 };

/* The marker file mapped shared, its blocks reserved, or NULL (then each update is a pwrite).
 * A store into it is in the page cache at once, as a pwrite's bytes are: a process killed
 * right after leaves it for the next start to read. Ten updates a module at start made twenty
 * system calls. */
static char *marker_map;

/* Set once the process ends as itself (see modhost_guard_remove_marker): no write starts after
 * the last one, which says idle. A slot outlives the process: a call entered on another
 * thread as a signal ends the process must not leave it saying "running". */
static atomic_int marker_closed;
/* Writes under way, which the last one waits for (briefly: one this thread's signal handler
 * interrupted never ends). */
static atomic_int marker_writers;

static int write_marker_now(const char *text, size_t length) {
    if (marker_fd < 0) return 0;
    if (length > MARKER_SIZE - 1) length = MARKER_SIZE - 1;
    char buffer[MARKER_SIZE];
    char *map = marker_map;
    char *target = map != NULL ? map : buffer;
    memcpy(target, text, length);
    memset(target + length, ' ', MARKER_SIZE - 1 - length);
    target[MARKER_SIZE - 1] = '\n';
    return map != NULL || pwrite(marker_fd, buffer, MARKER_SIZE, 0) == MARKER_SIZE;
}

int guard_write_marker(const char *text, size_t length) {
    atomic_fetch_add(&marker_writers, 1);
    int written = atomic_load(&marker_closed) ? 0 : write_marker_now(text, length);
    atomic_fetch_sub(&marker_writers, 1);
    return written;
}

/* Reports how the call ended, once, on the report descriptor: "\n" prefix outcome "\n". */
static void write_report(const char *outcome) {
    if (report_fd < 0 || strcmp(outcome, MODHOST_OUTCOME_RUNNING) == 0 || atomic_exchange(&reported_end, 1)) return;
    (void)write(report_fd, "\n", 1);
    (void)write(report_fd, report_prefix, strlen(report_prefix));
    (void)write(report_fd, outcome, strlen(outcome));
    (void)write(report_fd, "\n", 1);
}

/* Writes the prepared record plus `outcome` to the marker (and the report, for an end). */
int guard_write_outcome(const char *outcome) {
    write_report(outcome);
    char buffer[MARKER_SIZE];
    size_t length = record_length;
    memcpy(buffer, record, length);
    size_t extra = strlen(outcome);
    if (length + extra >= sizeof buffer) extra = sizeof buffer - length - 1;
    memcpy(buffer + length, outcome, extra);
    return guard_write_marker(buffer, length + extra);
}

static const char *decimal(int64_t value, char *buffer, size_t size);

void guard_set_record(const char *module, const char *phase, const char *tail) {
    /* Room left for the outcome a later write appends (see guard_write_outcome). */
    size_t room = sizeof record - 64, length = 0;
    char number[24];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    const char *parts[] = {module, "\t", phase, "\t", decimal(now.tv_sec, number, sizeof number), tail};
    for (size_t index = 0; index < sizeof parts / sizeof parts[0]; index++) {
        size_t extra = strlen(parts[index]);
        if (length + extra > room - 1) extra = room - 1 - length;
        memcpy(record + length, parts[index], extra);
        length += extra;
    }
    record[length] = '\0';
    record_length = length;
}

int guard_has_marker(void) { return marker_fd >= 0; }

void modhost_guard_remove_marker(void) {
    if (atomic_exchange(&marker_closed, 1)) return;
    /* A write on another thread ends within microseconds; wait at most 20 ms. */
    for (int round = 0; round < 2000 && atomic_load(&marker_writers) > 0; round++) {
        struct timespec pause = {0, 10 * 1000};
        nanosleep(&pause, NULL);
    }
    (void)write_marker_now(MODHOST_MARKER_IDLE, strlen(MODHOST_MARKER_IDLE));
    if (marker_path[0] != '\0') unlink(marker_path);
}

/* In a child a module forks (and does not exec), the host's marker is not the child's: its
 * copy of the descriptor would hold the slot's lock after the host ended, so that the next
 * start took the host for alive and never read a crash it left; and a crash of the child
 * would write over the host's record. */
static void forget_marker_in_child(void) {
    int fd = marker_fd;
    char *map = marker_map;
    marker_fd = -1;
    marker_map = NULL;
    marker_path[0] = '\0';
    backtrace_path[0] = '\0';
    report_fd = -1;
    if (map != NULL) munmap(map, MARKER_SIZE);
    if (fd >= 0) close(fd);
}

static pthread_once_t child_handler_once = PTHREAD_ONCE_INIT;

static void install_child_handler(void) { (void)pthread_atfork(NULL, NULL, forget_marker_in_child); }

const char *guard_backtrace_path(void) { return backtrace_path; }

/* The number `value` in decimal into `buffer` (at least 24 bytes); returns where it starts. */
static const char *decimal(int64_t value, char *buffer, size_t size) {
    size_t position = size - 1;
    buffer[position] = '\0';
    int negative = value < 0;
    uint64_t magnitude = negative ? (uint64_t)(-(value + 1)) + 1 : (uint64_t)value;
    do {
        buffer[--position] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0 && position > 1);
    if (negative) buffer[--position] = '-';
    return buffer + position;
}

/* The marker for a crash in `module`'s code outside a call the host made to it. */
int guard_write_background_outcome(const struct crash_site_module *module, const char *outcome) {
    if (module->record_head == NULL || module->record_tail == NULL) return 0;
    char buffer[MARKER_SIZE], number[24];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    const char *parts[] = {module->record_head, decimal(now.tv_sec, number, sizeof number), module->record_tail, outcome};
    size_t length = 0;
    for (size_t index = 0; index < 4; index++) {
        size_t extra = strlen(parts[index]);
        if (length + extra >= sizeof buffer) extra = sizeof buffer - length - 1;
        memcpy(buffer + length, parts[index], extra);
        length += extra;
    }
    return guard_write_marker(buffer, length);
}

/* Whether `fd` lies on a file system that writes a changed page to new blocks (btrfs, ZFS,
 * bcachefs): there reserved blocks do not keep a store from SIGBUS on a full disk. */
static int copies_on_write(int fd) {
    struct statfs where;
    if (fstatfs(fd, &where) != 0) return 1;
    switch ((unsigned long)where.f_type) {
    case 0x9123683EUL: /* btrfs */
    case 0x2FC12FC1UL: /* ZFS */
    case 0xCA451A4EUL: /* bcachefs */
        return 1;
    default:
        return 0;
    }
}

void modhost_guard_set_marker(int fd, const char *path, const char *backtrace) {
    if (fd >= 0) pthread_once(&child_handler_once, install_child_handler);
    /* Never unmapped: a write on the signal or watchdog path may hold the old address (one
     * page, kept until the process ends). */
    marker_map = NULL;
    marker_fd = fd;
    if (fd >= 0) atomic_store(&marker_closed, 0);
    /* Its whole length written first (idle), so that the mapping has no hole: a store into a
     * hole of a full disk would be SIGBUS, not an error, where this write fails with ENOSPC
     * (then every update is a pwrite). The write reserves the file's block as fallocate did,
     * for about half the time. On a file system that copies on write a changed page needs new
     * blocks whatever was reserved: there, pwrite. */
    if (fd >= 0 && guard_write_marker(MODHOST_MARKER_IDLE, strlen(MODHOST_MARKER_IDLE)) && !copies_on_write(fd)) {
        void *mapped = mmap(NULL, MARKER_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (mapped != MAP_FAILED) marker_map = mapped;
    }
    marker_path[0] = '\0';
    backtrace_path[0] = '\0';
    if (path != NULL && strlen(path) < sizeof marker_path) strcpy(marker_path, path);
    if (backtrace != NULL && strlen(backtrace) < sizeof backtrace_path) strcpy(backtrace_path, backtrace);
}

void modhost_guard_set_report(int fd, const char *prefix) {
    report_prefix[0] = '\0';
    if (prefix != NULL && strlen(prefix) < sizeof report_prefix) strcpy(report_prefix, prefix);
    report_fd = fd;
}

/* The name of a signal the guard reports. */
const char *guard_signal_name(int signal) {
    switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGFPE: return "SIGFPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    default: return "SIGNAL";
    }
}

/* What a backtrace file reserves before it is written. */
#define BACKTRACE_ROOM (128 * 1024)

/* Writes the crashing thread's backtrace to the prepared file (0600); 1 when it did. */
int guard_write_backtrace(int signal, void *const *frames, int count) {
    const char *path = guard_backtrace_path();
    if (path[0] == '\0') return 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return 0;
    const char *header = "modhost crashed: ";
    const char *name = guard_signal_name(signal);
    /* A file that cannot take the whole backtrace (a full disk) is not named: it goes to
     * standard error instead. backtrace_symbols_fd says nothing of a write that failed, so the
     * room is reserved first (more than 128 frames of long symbols take), and the file cut to
     * what was written. A file system that reserves nothing is written as it comes. */
    int reserved = fallocate(fd, 0, 0, BACKTRACE_ROOM) == 0;
    if ((!reserved && (errno == ENOSPC || errno == EDQUOT)) || write(fd, header, strlen(header)) != (ssize_t)strlen(header) ||
        write(fd, name, strlen(name)) != (ssize_t)strlen(name) || write(fd, "\n", 1) != 1) {
        close(fd);
        unlink(path);
        return 0;
    }
    backtrace_symbols_fd(frames, count, fd);
    crash_site_write_legend(fd);
    if (reserved) (void)ftruncate(fd, lseek(fd, 0, SEEK_CUR));
    close(fd);
    return 1;
}
