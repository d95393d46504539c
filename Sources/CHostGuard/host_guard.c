#define _GNU_SOURCE
#include "host_guard.h"
#include "guard_outcome.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <time.h>
#include <unistd.h>

#include "crash_site.h"

enum { LINE_SIZE = 1024, RECORD_SIZE = 1024 };

/* What the host is running now. `active` is 1 while the prepared buffers describe a module call. */
static atomic_int active;
static char active_module[256];
static _Atomic pid_t active_thread;
static char crash_line[LINE_SIZE], crash_suffix[LINE_SIZE], exit_line[LINE_SIZE], hang_line[LINE_SIZE];
static char record[RECORD_SIZE];
static size_t record_length;
static _Atomic int64_t call_deadline_ms;

static int marker_fd = -1;
/* Where a call's end (crash, exit, hang) is also reported as one line, or -1 (see
 * modhost_guard_set_report). */
static int report_fd = -1;
static char report_prefix[64];
static atomic_int reported_end;
static char marker_path[4096];
static char backtrace_path[4096];

/* Copies of descriptors 0-2 as the host started, and what each was (device and inode). */
static int saved_fds[3] = {-1, -1, -1};
static dev_t saved_devices[3];
static ino_t saved_inodes[3];

static atomic_int host_exiting;
static atomic_int interrupts;
static atomic_int pending_signal;
static _Atomic int64_t signal_deadline_ms;
static int wake_fd = -1;

static int terminal_saved;
static struct termios saved_terminal;
/* What puts the screen back (off the alternate screen, the cursor shown) while the app runs
   full screen; empty otherwise. */
static char screen_reset[64];
static atomic_int screen_reset_length;

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP};

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void put(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static const char *signal_name(int signal) {
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

/* The marker always holds MARKER_SIZE bytes: a record padded with spaces, so every update is
 * one pwrite and never needs a truncate. */
enum { MARKER_SIZE = RECORD_SIZE + 64 };

static void write_marker(const char *text, size_t length) {
    if (marker_fd < 0) return;
    char buffer[MARKER_SIZE];
    if (length > MARKER_SIZE - 1) length = MARKER_SIZE - 1;
    memcpy(buffer, text, length);
    memset(buffer + length, ' ', MARKER_SIZE - 1 - length);
    buffer[MARKER_SIZE - 1] = '\n';
    (void)pwrite(marker_fd, buffer, MARKER_SIZE, 0);
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
static void write_outcome(const char *outcome) {
    write_report(outcome);
    char buffer[MARKER_SIZE];
    size_t length = record_length;
    memcpy(buffer, record, length);
    size_t extra = strlen(outcome);
    if (length + extra >= sizeof buffer) extra = sizeof buffer - length - 1;
    memcpy(buffer + length, outcome, extra);
    write_marker(buffer, length + extra);
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
static void end_child_group(void) {
    int group = atomic_exchange(&child_group, 0);
    if (group > 0) kill(-group, SIGKILL);
}

void modhost_guard_exit_now(int status) {
    atomic_store(&host_exiting, 1);
    end_child_group();
    modhost_guard_restore_terminal();
    if (marker_path[0] != '\0') unlink(marker_path);
    _exit(status);
}

/* Where the thread was when the signal came. */
static void *instruction_pointer(void *context) {
#if defined(__x86_64__)
    return (void *)((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (void *)((ucontext_t *)context)->uc_mcontext.pc;
#else
    (void)context;
    return NULL;
#endif
}

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
static void write_background_outcome(const struct crash_site_module *module, const char *outcome) {
    if (module->record_head == NULL || module->record_tail == NULL) return;
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
    write_marker(buffer, length);
}

/* Writes the crashing thread's backtrace to the prepared file (0600); 1 when it did. */
static int write_backtrace(int signal, void *const *frames, int count) {
    if (backtrace_path[0] == '\0') return 0;
    int fd = open(backtrace_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return 0;
    const char *header = "modhost crashed: ";
    (void)write(fd, header, strlen(header));
    (void)write(fd, signal_name(signal), strlen(signal_name(signal)));
    (void)write(fd, "\n", 1);
    backtrace_symbols_fd(frames, count, fd);
    crash_site_write_legend(fd);
    close(fd);
    return 1;
}

static void on_fatal_signal(int signal, siginfo_t *info, void *context) {
    (void)info;
    end_child_group();
    modhost_guard_restore_terminal();
    char outcome[32] = MODHOST_OUTCOME_SIGNAL;
    strcat(outcome, signal_name(signal));
    int in_call = atomic_load(&active);
    /* The thread that made the guarded call: a crash without module frames on another
     * thread (a host thread, a library's) is not the calling module's. */
    int on_calling_thread = in_call && (pid_t)syscall(SYS_gettid) == atomic_load(&active_thread);
    /* Say it in the marker before unwinding: on a smashed stack the unwinder may fault in
     * turn, and the default action then ends the process at once. */
    void *pc = context == NULL ? NULL : instruction_pointer(context);
    const struct crash_site_module *at_pc = crash_site_module_at(pc);
    if (!atomic_load(&host_exiting)) {
        if (at_pc != NULL && at_pc->name != NULL && !(in_call && strcmp(at_pc->name, active_module) == 0)) {
            if (marker_fd >= 0) write_background_outcome(at_pc, outcome);
        } else if (on_calling_thread || (in_call && at_pc != NULL)) {
            write_outcome(outcome);
        }
    }
    /* The crashing thread's return addresses, the faulting instruction first. */
    void *frames[128];
    int count = backtrace(frames + 1, 127) + 1;
    frames[0] = pc;
    if (!atomic_load(&host_exiting)) {
        const struct crash_site_module *culprit = crash_site_culprit(frames, count);
        put("modhost: error: ");
        if (culprit != NULL && culprit->name != NULL && !(in_call && strcmp(culprit->name, active_module) == 0)) {
            /* Its own code, outside any call the host made to it: a thread of its own, a
             * timer, a route another module called. */
            put("module '");
            put(culprit->name);
            put("' crashed the host in background (");
            put(signal_name(signal));
            put(")");
            if (marker_fd >= 0) {
                put("; it is skipped from the next start; 'modhost --retry ");
                put(culprit->name);
                put("' tries it again");
                write_background_outcome(culprit, outcome);
            }
        } else if (in_call && (on_calling_thread || culprit != NULL)) {
            put(crash_line);
            put(" (");
            put(signal_name(signal));
            put(")");
            put(crash_suffix);
            write_outcome(outcome);
        } else {
            put("the host crashed (");
            put(signal_name(signal));
            put(")");
        }
        if (write_backtrace(signal, frames, count)) {
            put("; its backtrace is in '");
            put(backtrace_path);
            put("'\n");
        } else {
            put("\n");
            backtrace_symbols_fd(frames, count, STDERR_FILENO);
        }
    }
    /* End by the same signal, with its default action: never through the Swift runtime's
     * backtracer, which offers an interactive session for 30 s on a terminal. Returning
     * re-runs a faulting instruction; a raised signal, blocked here, arrives on return. */
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal, &fallback, NULL);
    raise(signal);
}

static void on_stop_signal(int signal) {
    int count = atomic_fetch_add(&interrupts, 1) + 1;
    if (count >= 2) {
        put("\n");
        modhost_guard_exit_now(128 + signal);
    }
    atomic_store(&pending_signal, signal);
    atomic_store(&signal_deadline_ms, now_ms() + 1000);
    if (wake_fd >= 0) {
        char byte = (char)signal;
        (void)write(wake_fd, &byte, 1);
    }
}

static void on_exit_hook(int status, void *argument) {
    (void)argument;
    end_child_group();
    modhost_guard_restore_terminal();
    if (atomic_load(&active) && !atomic_load(&host_exiting)) {
        char number[16];
        int value = status, position = 15;
        number[position] = '\0';
        do {
            number[--position] = (char)('0' + value % 10);
            value /= 10;
        } while (value > 0 && position > 0);
        /* exit_line holds one '%' where the status goes: "module 'X' called exit(%) in start". */
        put("modhost: error: ");
        const char *mark = strchr(exit_line, '%');
        if (mark == NULL) {
            put(exit_line);
        } else {
            (void)write(STDERR_FILENO, exit_line, (size_t)(mark - exit_line));
            put(number + position);
            put(mark + 1);
        }
        put(crash_suffix);
        put("\n");
        char outcome[32] = MODHOST_OUTCOME_EXIT;
        strcat(outcome, number + position);
        write_outcome(outcome);
        /* Never exit 0 when a module ended the process. */
        _exit(1);
    }
}

static void *watchdog(void *argument) {
    (void)argument;
    int reported = 0;
    for (;;) {
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
        int64_t now = now_ms();
        int64_t signal_deadline = atomic_load(&signal_deadline_ms);
        if (signal_deadline != 0 && now >= signal_deadline) {
            put("\n");
            modhost_guard_exit_now(128 + atomic_load(&pending_signal));
        }
        int64_t deadline = atomic_load(&call_deadline_ms);
        if (deadline != 0 && now >= deadline && atomic_load(&active) && !reported) {
            reported = 1;
            put("modhost: error: ");
            put(hang_line);
            put(crash_suffix);
            put("\n");
            write_outcome(MODHOST_OUTCOME_HANG);
            end_child_group();
            modhost_guard_restore_terminal();
            /* The module still holds the thread that called it; end cleanly rather than run on
             * beside it. The marker stays: the next start skips the module. */
            atomic_store(&host_exiting, 1);
            _exit(1);
        }
    }
    return NULL;
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
        struct stat status;
        if (fstat(fd, &status) != 0) continue;
        saved_fds[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 10);
        saved_devices[fd] = status.st_dev;
        saved_inodes[fd] = status.st_ino;
    }
}

/* Puts back each of 0-2 that is closed or is another file than at install; their bits. */
static int restore_standard_descriptors(void) {
    int restored = 0;
    for (int fd = 0; fd < 3; fd++) {
        if (saved_fds[fd] < 0) continue;
        struct stat status;
        if (fstat(fd, &status) == 0 && status.st_dev == saved_devices[fd] && status.st_ino == saved_inodes[fd]) continue;
        if (dup2(saved_fds[fd], fd) == fd) restored |= 1 << fd;
    }
    return restored;
}

static void on_ignored_signal(int signal) { (void)signal; }

/* Installs `handler` for `signal` unless the process was started with it ignored. */
static void handle_unless_ignored(int signal, const struct sigaction *handler) {
    struct sigaction inherited;
    if (sigaction(signal, NULL, &inherited) != 0 || inherited.sa_handler != SIG_IGN) sigaction(signal, handler, NULL);
}

void modhost_guard_install(int fd) {
    wake_fd = fd;
    modhost_guard_keep_standard_descriptors();
    if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_terminal) == 0) terminal_saved = 1;
    /* backtrace() loads the unwinder on its first call: never for the first time in a handler. */
    void *prime[2];
    (void)backtrace(prime, 2);

    static char alternate_stack[64 * 1024];
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack, .ss_flags = 0};
    sigaltstack(&stack, NULL);
    for (size_t index = 0; index < sizeof fatal_signals / sizeof fatal_signals[0]; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(fatal_signals[index], &action, NULL);
    }
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = on_stop_signal;
    stop.sa_flags = SA_RESTART;
    sigemptyset(&stop.sa_mask);
    /* A shell starts a background job of a script with SIGINT ignored, so that a Ctrl-C meant
     * for the script's foreground does not end it too, and nohup ignores SIGHUP: as Unix tools
     * do, keep them so. */
    handle_unless_ignored(SIGINT, &stop);
    handle_unless_ignored(SIGHUP, &stop);
    sigaction(SIGTERM, &stop, NULL);
    sigaction(SIGQUIT, &stop, NULL);
    /* A closed pipe shows as EPIPE on the write, which the host reports as its own; the user
     * signals have no meaning here and must not end the process inside a module call. */
    /* A handler that does nothing rather than SIG_IGN: an ignored signal stays ignored in
     * every program a module starts, a caught one goes back to its default at exec. */
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = on_ignored_signal;
    ignore.sa_flags = SA_RESTART;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, NULL);
    sigaction(SIGUSR1, &ignore, NULL);
    sigaction(SIGUSR2, &ignore, NULL);
    /* A parent may have started us with these blocked (a spawning thread's mask is inherited). */
    sigset_t wanted;
    sigemptyset(&wanted);
    int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t index = 0; index < sizeof stops / sizeof stops[0]; index++) sigaddset(&wanted, stops[index]);
    for (size_t index = 0; index < sizeof fatal_signals / sizeof fatal_signals[0]; index++) sigaddset(&wanted, fatal_signals[index]);
    pthread_sigmask(SIG_UNBLOCK, &wanted, NULL);
    on_exit(on_exit_hook, NULL);

    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_create(&thread, &attributes, watchdog, NULL);
    pthread_attr_destroy(&attributes);
}

void modhost_guard_set_marker(int fd, const char *path, const char *backtrace) {
    marker_fd = fd;
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

int modhost_guard_add_module(void *handle, const char *name, const char *record_head, const char *record_tail) {
    return crash_site_add(handle, name, record_head, record_tail);
}

static void copy(char *target, const char *source, size_t size) {
    strncpy(target, source, size - 1);
    target[size - 1] = '\0';
}

void modhost_guard_enter(const char *module, const char *crash, const char *suffix, const char *exited, const char *hang,
                         const char *marker_record, int64_t timeout_ms) {
    atomic_store(&active, 0);
    copy(active_module, module, sizeof active_module);
    atomic_store(&active_thread, (pid_t)syscall(SYS_gettid));
    copy(crash_line, crash, sizeof crash_line);
    copy(crash_suffix, suffix, sizeof crash_suffix);
    copy(exit_line, exited, sizeof exit_line);
    copy(hang_line, hang, sizeof hang_line);
    copy(record, marker_record, sizeof record - 64);
    record_length = strlen(record);
    write_outcome(MODHOST_OUTCOME_RUNNING);
    atomic_store(&call_deadline_ms, timeout_ms > 0 ? now_ms() + timeout_ms : 0);
    atomic_store(&active, 1);
}

int modhost_guard_leave(void) {
    atomic_store(&active, 0);
    atomic_store(&call_deadline_ms, 0);
    write_marker("idle", 4);
    return restore_standard_descriptors();
}

/* Per thread: whether this thread suspended an active call (reads happen on the app's thread). */
static _Thread_local int suspended;

void modhost_guard_suspend(void) {
    if (!atomic_load(&active)) return;
    suspended = 1;
    atomic_store(&active, 0);
    write_marker("idle", 4);
}

void modhost_guard_resume(void) {
    if (!suspended) return;
    suspended = 0;
    write_outcome(MODHOST_OUTCOME_RUNNING);
    atomic_store(&active, 1);
}

void modhost_guard_host_exiting(void) { atomic_store(&host_exiting, 1); }

int modhost_guard_pending_signal(void) { return atomic_load(&pending_signal); }

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

void modhost_output_failed(int code) {
    atomic_store(&host_exiting, 1);
    if (code != EPIPE) {
        put("modhost: error: cannot write to standard output: ");
        put(strerror(code));
        put("\n");
    }
    modhost_guard_exit_now(1);
}
