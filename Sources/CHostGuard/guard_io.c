#define _GNU_SOURCE
/* The guard's hold on the process's standard descriptors, its output and the terminal: what
 * every way out puts back (host_guard.c calls these from its signal and exit paths, so each is
 * async-signal-safe but the flush). */
#include "host_guard.h"
#include "guard_io.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

/* For each of descriptors 0-2, copies of the files it has held, with what each is (device and
 * inode), and which one is put back after a module call that closed or replaced it (-1: none).
 * A copy is never changed or closed once made: a module call ending on another thread (a stop
 * on a signal) may be putting one back while the main thread keeps another (a loan). Made on
 * the main thread only; a few per descriptor (its own, a lent terminal). */
#define MOST_COPIES 8
struct kept_copy {
    int fd;
    dev_t device;
    ino_t inode;
};
static struct kept_copy copies[3][MOST_COPIES];
static atomic_int copy_counts[3];
static atomic_int kept[3] = {-1, -1, -1};

static int terminal_saved;
static struct termios saved_terminal;
/* What puts the screen back (off the alternate screen, the cursor shown) while the app runs
   full screen; empty otherwise. */
static char screen_reset[64];
static atomic_int screen_reset_length;

void guard_save_terminal(void) {
    if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_terminal) == 0) terminal_saved = 1;
}

void modhost_guard_restore_terminal(void) {
    int length = atomic_exchange(&screen_reset_length, 0);
    if (length > 0) (void)write(STDOUT_FILENO, screen_reset, (size_t)length);
    /* Only from the terminal's foreground: a process in the background (zsh runs the command
     * of 'source <(modhost completion zsh)' there) that set the terminal would be stopped by
     * SIGTTOU, and the shell with it. tcgetpgrp and getpgrp are async-signal-safe. */
    if (terminal_saved && tcgetpgrp(STDIN_FILENO) == getpgrp()) tcsetattr(STDIN_FILENO, TCSANOW, &saved_terminal);
}

void modhost_guard_set_screen_reset(const char *sequence) {
    atomic_store(&screen_reset_length, 0);
    if (sequence == NULL) return;
    size_t length = strlen(sequence);
    if (length >= sizeof screen_reset) length = sizeof screen_reset - 1;
    memcpy(screen_reset, sequence, length);
    atomic_store(&screen_reset_length, (int)length);
}

/* The process group of a child the host runs on its own (the app's check), or 0. */
static atomic_int child_group;

void modhost_guard_set_child_group(int group) { atomic_store(&child_group, group); }

int modhost_guard_child_group(void) { return atomic_load(&child_group); }

/* Ends that group on the paths that never come back (kill is async-signal-safe). */
void guard_end_child_group(void) {
    int group = atomic_exchange(&child_group, 0);
    if (group > 0) kill(-group, SIGKILL);
}

/* Opens /dev/null on each of 0-2 that is closed (so no file the host opens later takes its
 * number), and keeps a copy of each with what it is, to put back after a module call. */
void modhost_guard_keep_standard_descriptors(void) {
    static int kept;
    if (kept) return;
    kept = 1;
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) < 0) {
            int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (null >= 0 && null != fd) {
                dup2(null, fd);
                close(null);
            }
        }
    }
    modhost_guard_keep_standard_descriptors_as_they_are();
}

/* The index of descriptor `fd`'s copy of the file it holds now (`status`), made if it has none
 * yet; -1 when none can be (no descriptor left, or no room: then nothing is put back). */
static int copy_of(int fd, const struct stat *status) {
    int count = atomic_load(&copy_counts[fd]);
    for (int index = 0; index < count; index++) {
        if (copies[fd][index].device == status->st_dev && copies[fd][index].inode == status->st_ino) return index;
    }
    if (count == MOST_COPIES) return -1;
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    if (copy < 0) return -1;
    copies[fd][count] = (struct kept_copy){copy, status->st_dev, status->st_ino};
    atomic_store(&copy_counts[fd], count + 1);
    return count;
}

void modhost_guard_keep_standard_descriptors_as_they_are(void) {
    for (int fd = 0; fd < 3; fd++) {
        struct stat status;
        atomic_store(&kept[fd], fstat(fd, &status) == 0 ? copy_of(fd, &status) : -1);
    }
}

/* Puts back each of 0-2 that is closed or is another file than was kept; their bits. */
int guard_restore_standard_descriptors(void) {
    int restored = 0;
    for (int fd = 0; fd < 3; fd++) {
        int index = atomic_load(&kept[fd]);
        if (index < 0) continue;
        const struct kept_copy *copy = &copies[fd][index];
        struct stat status;
        if (fstat(fd, &status) == 0 && status.st_dev == copy->device && status.st_ino == copy->inode) continue;
        if (dup2(copy->fd, fd) == fd) restored |= 1 << fd;
    }
    return restored;
}

void modhost_guard_save_terminal(void) { guard_save_terminal(); }

void modhost_line_buffer_stdout(void) {
    fflush(stdout);
    setvbuf(stdout, NULL, _IOLBF, 0);
}

/* EPIPE when standard output is a pipe or socket nobody reads any more, else `otherwise`. */
static int pipe_closed_or(int otherwise) {
    struct pollfd probe = {STDOUT_FILENO, 0, 0};
    if (poll(&probe, 1, 0) == 1 && (probe.revents & POLLERR)) return EPIPE;
    return otherwise;
}

int modhost_flush_stdout(void) {
    /* A write that failed while a module printed left only the error flag, not its errno. */
    int failed_before = ferror(stdout);
    clearerr(stdout);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) return errno != 0 ? errno : pipe_closed_or(EIO);
    return failed_before ? pipe_closed_or(EIO) : 0;
}
