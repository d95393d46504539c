#include "modhost_suspend.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int suspend_output = -1;
static int suspend_wake = -1;
static char suspend_leave[128];
static size_t suspend_leave_length;
static struct termios suspend_cooked;
static volatile sig_atomic_t suspend_installed;

static void handle(int signal_number, void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
}

static void on_suspend(int signal_number) {
    (void)signal_number;
    int saved_errno = errno;
    if (suspend_leave_length > 0) (void)write(suspend_output, suspend_leave, suspend_leave_length);
    tcsetattr(STDIN_FILENO, TCSANOW, &suspend_cooked);
    /* Stop as the default action would: SIGTSTP is blocked inside its handler, so unblock it. */
    handle(SIGTSTP, SIG_DFL);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &stop, NULL);
    raise(SIGTSTP);
    /* Continued. */
    if (suspend_installed) {
        handle(SIGTSTP, on_suspend);
        char byte = 2;
        (void)write(suspend_wake, &byte, 1);
    }
    errno = saved_errno;
}

void modhost_suspend_install(int output, const char *leave, const struct termios *cooked, int wake) {
    struct sigaction inherited;
    if (sigaction(SIGTSTP, NULL, &inherited) != 0 || inherited.sa_handler == SIG_IGN) return;
    size_t length = strlen(leave);
    if (length > sizeof suspend_leave) length = sizeof suspend_leave;
    memcpy(suspend_leave, leave, length);
    suspend_leave_length = length;
    suspend_cooked = *cooked;
    suspend_output = output;
    suspend_wake = wake;
    suspend_installed = 1;
    handle(SIGTSTP, on_suspend);
}

void modhost_suspend_remove(void) {
    if (!suspend_installed) return;
    suspend_installed = 0;
    handle(SIGTSTP, SIG_DFL);
}
