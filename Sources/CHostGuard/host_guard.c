#define _GNU_SOURCE
#include "host_guard.h"

#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

enum { LINE_SIZE = 1024, RECORD_SIZE = 1024 };

/* What the host is running now. `active` is 1 while the prepared buffers describe a module call. */
static atomic_int active;
static char crash_line[LINE_SIZE], crash_suffix[LINE_SIZE], exit_line[LINE_SIZE], hang_line[LINE_SIZE];
static char record[RECORD_SIZE];
static size_t record_length;
static _Atomic int64_t call_deadline_ms;

static int marker_fd = -1;
static char marker_path[4096];

static atomic_int host_exiting;
static atomic_int interrupts;
static atomic_int pending_signal;
static _Atomic int64_t signal_deadline_ms;
static int wake_fd = -1;

static int terminal_saved;
static struct termios saved_terminal;

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP};
static struct sigaction previous_actions[sizeof fatal_signals / sizeof fatal_signals[0]];

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

/* Writes the prepared record plus `outcome` to the marker. */
static void write_outcome(const char *outcome) {
    char buffer[MARKER_SIZE];
    size_t length = record_length;
    memcpy(buffer, record, length);
    size_t extra = strlen(outcome);
    if (length + extra >= sizeof buffer) extra = sizeof buffer - length - 1;
    memcpy(buffer + length, outcome, extra);
    write_marker(buffer, length + extra);
}

void modhost_guard_restore_terminal(void) {
    if (terminal_saved) tcsetattr(STDIN_FILENO, TCSANOW, &saved_terminal);
}

void modhost_guard_exit_now(int status) {
    atomic_store(&host_exiting, 1);
    modhost_guard_restore_terminal();
    if (marker_path[0] != '\0') unlink(marker_path);
    _exit(status);
}

static void on_fatal_signal(int signal, siginfo_t *info, void *context) {
    (void)info;
    (void)context;
    modhost_guard_restore_terminal();
    if (atomic_load(&active) && !atomic_load(&host_exiting)) {
        put("modhost: error: ");
        put(crash_line);
        put(" (");
        put(signal_name(signal));
        put(")");
        put(crash_suffix);
        put("\n");
        char outcome[32] = "signal ";
        strcat(outcome, signal_name(signal));
        write_outcome(outcome);
    }
    /* Let the crash proceed as it would have: the previous handler (the Swift runtime's
     * backtracer, or the default action) gets the same signal again. */
    for (size_t index = 0; index < sizeof fatal_signals / sizeof fatal_signals[0]; index++) {
        if (fatal_signals[index] == signal) sigaction(signal, &previous_actions[index], NULL);
    }
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
        char outcome[32] = "exit ";
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
            write_outcome("hang");
            modhost_guard_restore_terminal();
            /* The module still holds the thread that called it; end cleanly rather than run on
             * beside it. The marker stays: the next start skips the module. */
            atomic_store(&host_exiting, 1);
            _exit(1);
        }
    }
    return NULL;
}

void modhost_guard_install(int fd) {
    wake_fd = fd;
    if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_terminal) == 0) terminal_saved = 1;

    static char alternate_stack[64 * 1024];
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack, .ss_flags = 0};
    sigaltstack(&stack, NULL);
    for (size_t index = 0; index < sizeof fatal_signals / sizeof fatal_signals[0]; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(fatal_signals[index], &action, &previous_actions[index]);
    }
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = on_stop_signal;
    stop.sa_flags = SA_RESTART;
    sigemptyset(&stop.sa_mask);
    /* A shell starts a background job of a script with SIGINT ignored, so that a Ctrl-C meant
     * for the script's foreground does not end it too; as Unix tools do, keep it so. */
    struct sigaction inherited;
    if (sigaction(SIGINT, NULL, &inherited) != 0 || inherited.sa_handler != SIG_IGN) sigaction(SIGINT, &stop, NULL);
    sigaction(SIGTERM, &stop, NULL);
    /* A parent may have started us with these blocked (a spawning thread's mask is inherited). */
    sigset_t wanted;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGINT);
    sigaddset(&wanted, SIGTERM);
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

void modhost_guard_set_marker(int fd, const char *path) {
    marker_fd = fd;
    marker_path[0] = '\0';
    if (path != NULL && strlen(path) < sizeof marker_path) strcpy(marker_path, path);
}

static void copy(char *target, const char *source, size_t size) {
    strncpy(target, source, size - 1);
    target[size - 1] = '\0';
}

void modhost_guard_enter(const char *crash, const char *suffix, const char *exited, const char *hang, const char *marker_record,
                         int64_t timeout_ms) {
    atomic_store(&active, 0);
    copy(crash_line, crash, sizeof crash_line);
    copy(crash_suffix, suffix, sizeof crash_suffix);
    copy(exit_line, exited, sizeof exit_line);
    copy(hang_line, hang, sizeof hang_line);
    copy(record, marker_record, sizeof record - 64);
    record_length = strlen(record);
    write_outcome("running");
    atomic_store(&call_deadline_ms, timeout_ms > 0 ? now_ms() + timeout_ms : 0);
    atomic_store(&active, 1);
}

void modhost_guard_leave(void) {
    atomic_store(&active, 0);
    atomic_store(&call_deadline_ms, 0);
    write_marker("idle", 4);
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
    write_outcome("running");
    atomic_store(&active, 1);
}

void modhost_guard_host_exiting(void) { atomic_store(&host_exiting, 1); }

int modhost_guard_pending_signal(void) { return atomic_load(&pending_signal); }

int modhost_flush_stdout(void) {
    clearerr(stdout);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) return errno != 0 ? errno : EIO;
    return 0;
}
