#ifndef MODHOST_SUSPEND_H
#define MODHOST_SUSPEND_H

#include <termios.h>

/* Ctrl-Z in the kit's full-screen mode. SIGTSTP is caught: `leave` is written to `output` and
   the terminal set back to `cooked`, then the process stops as it would have. Once continued
   (`fg`), the handler is back and one byte 2 is written to `wake`, so the app takes the
   screen again and redraws it. A SIGTSTP ignored when the process started stays ignored. In C
   because the handler must be async-signal-safe. */
void modhost_suspend_install(int output, const char *leave, const struct termios *cooked, int wake);

/* Ctrl-Z stops the process as usual again (the line mode). */
void modhost_suspend_remove(void);

#endif
