/* CModuleABI: the C entry point's layout and the kit's C helpers (display width, Ctrl-Z in full
 * screen). An umbrella header, not an umbrella folder: a header added here changes this file, so
 * every build's module cache sees it. */
#include "modhost_abi.h"
#include "modhost_suspend.h"
#include "modhost_text_width.h"
