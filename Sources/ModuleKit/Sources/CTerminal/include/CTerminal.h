/* CTerminal: the kit's terminal helpers in C — a character's display width (the C library's
 * wcwidth) and Ctrl-Z in full screen (the screen left and restored around the stop). */
#include "modhost_suspend.h"
#include "modhost_text_width.h"
